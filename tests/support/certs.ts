/**
 * Test certificates made with `openssl` in a temporary directory: a CA, a
 * server certificate for `localhost` and `127.0.0.1`, client certificates
 * signed by that CA, and a second, unrelated CA with its own client.
 *
 * @module
 */

/** A certificate and its key, as file paths. */
export interface CertPair {
  /** Path of the PEM certificate. */
  readonly cert: string;
  /** Path of the PEM private key. */
  readonly key: string;
}

/** What {@linkcode makeCerts} made; removes its directory when disposed. */
export interface TestCerts extends AsyncDisposable {
  /** The directory holding every file. */
  readonly dir: string;
  /** The CA's certificate (and key, for signing more). */
  readonly ca: CertPair;
  /** The server's certificate: CN `localhost`, SANs `DNS:localhost` and `IP:127.0.0.1`, server and client use. */
  readonly server: CertPair;
  /** Client certificates by CN, signed by {@linkcode ca}; each has a SAN `URI:spiffe://test/<cn>`. */
  readonly clients: Readonly<Record<string, CertPair>>;
  /** A CA that nothing trusts. */
  readonly otherCa: CertPair;
  /** A client certificate (CN `intruder`) signed by {@linkcode otherCa}. */
  readonly intruder: CertPair;
  /** Removes the directory. */
  close(): Promise<void>;
}

const OPENSSL = "/usr/bin/openssl";

async function openssl(args: string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command(OPENSSL, {
    args,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (code !== 0) {
    throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(stderr)}`);
  }
}

async function makeCa(dir: string, name: string): Promise<CertPair> {
  const pair = { cert: `${dir}/${name}.crt`, key: `${dir}/${name}.key` };
  await openssl([
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    pair.key,
    "-out",
    pair.cert,
    "-days",
    "2",
    "-subj",
    `/CN=${name}`,
  ]); // deno-fmt-ignore
  return pair;
}

async function makeSigned(
  dir: string,
  name: string,
  cn: string,
  extensions: string,
  ca: CertPair,
): Promise<CertPair> {
  const pair = { cert: `${dir}/${name}.crt`, key: `${dir}/${name}.key` };
  const csr = `${dir}/${name}.csr`;
  const ext = `${dir}/${name}.ext`;
  await Deno.writeTextFile(ext, extensions);
  await openssl([
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    pair.key,
    "-out",
    csr,
    "-subj",
    `/CN=${cn}`,
  ]); // deno-fmt-ignore
  await openssl([
    "x509", "-req", "-in", csr, "-CA", ca.cert, "-CAkey", ca.key, "-CAcreateserial",
    "-out", pair.cert, "-days", "2", "-extfile", ext,
  ]); // deno-fmt-ignore
  return pair;
}

/**
 * Makes a CA, a server certificate, one client certificate per name in
 * `clients`, and an unrelated CA with a client `intruder`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeCerts } from "./certs.ts";
 *
 * await using certs = await makeCerts(["executor-1"]);
 * const pem = await Deno.readTextFile(certs.clients["executor-1"]!.cert);
 * assert.ok(pem.startsWith("-----BEGIN CERTIFICATE-----"));
 * ```
 */
export async function makeCerts(clients: readonly string[] = []): Promise<TestCerts> {
  const dir = await Deno.makeTempDir({ prefix: "sm-certs-" });
  try {
    const ca = await makeCa(dir, "ca");
    const server = await makeSigned(
      dir,
      "server",
      "localhost",
      "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n",
      ca,
    );
    const made: Record<string, CertPair> = {};
    for (const [i, cn] of clients.entries()) {
      made[cn] = await makeSigned(
        dir,
        `client-${i}`,
        cn,
        `subjectAltName=URI:spiffe://test/${cn}\nextendedKeyUsage=clientAuth\n`,
        ca,
      );
    }
    const otherCa = await makeCa(dir, "other-ca");
    const intruder = await makeSigned(
      dir,
      "intruder",
      "intruder",
      "extendedKeyUsage=clientAuth\n",
      otherCa,
    );
    const close = () => Deno.remove(dir, { recursive: true }).catch(() => {});
    return {
      dir,
      ca,
      server,
      clients: made,
      otherCa,
      intruder,
      close,
      [Symbol.asyncDispose]: close,
    };
  } catch (error) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  }
}
