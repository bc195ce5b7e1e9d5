/**
 * Headless Chromium for the dashboard's browser tests: where it is, whether
 * it is installed (a test skips itself, saying so, when it is not), and how
 * it is started.
 *
 * @module
 */
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium (`apt-get install chromium`, as `.ci/run` does). */
export const CHROMIUM = "/usr/bin/chromium";

/** Flags for a headless run in a container without a GPU or network of its own. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Whether {@linkcode CHROMIUM} is installed. */
export function hasChromium(): boolean {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
}

/** Starts headless Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
}
