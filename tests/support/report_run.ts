/**
 * Runs a harness script (the chaos run, the soak) as CI does: in its own
 * process, writing its results to a fresh directory, and hands the test the
 * parsed results file with the script's whole output, before the directory
 * is removed.
 *
 * @module
 */

/** What a run left: its results (`null` when it wrote none), its output and exit code. */
export interface ReportRun<T> {
  readonly report: T | null;
  /** stdout then stderr. */
  readonly text: string;
  readonly code: number;
}

/**
 * Runs `deno run -A script ...args(out)`, then `check` with `<out>/<file>`
 * parsed; `out` is removed afterwards whatever `check` does.
 */
export async function withReportRun<T>(
  options: {
    readonly script: string;
    readonly args: (out: string) => readonly string[];
    readonly file: string;
    readonly prefix: string;
  },
  check: (run: ReportRun<T>) => void | Promise<void>,
): Promise<void> {
  const out = await Deno.makeTempDir({ prefix: options.prefix });
  try {
    const result = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", options.script, ...options.args(out)],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(result.stdout) +
      new TextDecoder().decode(result.stderr);
    const report = JSON.parse(
      await Deno.readTextFile(`${out}/${options.file}`).catch(() => "null"),
    ) as T | null;
    await check({ report, text, code: result.code });
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
}
