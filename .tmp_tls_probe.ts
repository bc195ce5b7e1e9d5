import * as grpc from "@grpc/grpc-js";
import { Buffer } from "node:buffer";
const d = "/tmp/sec/";
const r = (f: string) => Buffer.from(Deno.readFileSync(d + f));
const server = new grpc.Server();
const svc = { echo: { path: "/t.T/Echo", requestStream: false, responseStream: false,
  requestSerialize: (x: Uint8Array) => Buffer.from(x), requestDeserialize: (b: Uint8Array) => b,
  responseSerialize: (x: Uint8Array) => Buffer.from(x), responseDeserialize: (b: Uint8Array) => b } };
server.addService(svc as never, { echo: (call: any, cb: any) => {
  const ctx = call.getAuthContext?.();
  console.log("authctx", ctx?.transportSecurityType, ctx?.sslPeerCertificate?.subject, ctx?.sslPeerCertificate?.subjectaltname, "peer", call.getPeer());
  cb(null, new Uint8Array([1])); } });
const port = await new Promise<number>((res, rej) => server.bindAsync("127.0.0.1:0",
  grpc.ServerCredentials.createSsl(r("ca.crt"), [{ private_key: r("server.key"), cert_chain: r("server.crt") }], true),
  (e, p) => e ? rej(e) : res(p)));
const Client = grpc.makeGenericClientConstructor(svc as never, "T");
async function call(creds: grpc.ChannelCredentials, label: string) {
  const c = new Client(`localhost:${port}`, creds) as any;
  try {
    await new Promise((res, rej) => c.echo(new Uint8Array([0]), { deadline: Date.now() + 3000 }, (e: any, v: any) => e ? rej(e) : res(v)));
    console.log(label, "OK");
  } catch (e) { console.log(label, "ERR", (e as any).code, (e as any).details); }
  c.close();
}
await call(grpc.credentials.createSsl(r("ca.crt"), r("client.key"), r("client.crt")), "mtls");
await call(grpc.credentials.createSsl(r("ca.crt")), "tls-nocert");
await call(grpc.credentials.createInsecure(), "plain");
server.forceShutdown();
