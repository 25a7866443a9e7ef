/** A live Hearth stack for the tests: `python -m tests.live_stack` from the repository root
 * (embedded PostgreSQL + Redis in a temporary folder, migrated, an admin key, the API on a free
 * port). HEARTH_PYTHON names the interpreter (default: the repository's .venv, else python3). */

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const START_TIMEOUT_MS = 120_000;

export interface LiveStack {
  url: string;
  adminKey: string;
  stop(): Promise<void>;
}

function python(): string {
  if (process.env.HEARTH_PYTHON) return process.env.HEARTH_PYTHON;
  const venv = join(REPO, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

export async function startStack(): Promise<LiveStack> {
  const child: ChildProcess = spawn(python(), ["-m", "tests.live_stack"], {
    cwd: REPO,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const ready = new Promise<{ url: string; admin_key: string }>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error("the live stack did not start in time")), START_TIMEOUT_MS);
    child.once("exit", (code) => reject(new Error(`the live stack exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      resolveReady(JSON.parse(line) as { url: string; admin_key: string });
    });
  });
  const { url, admin_key: adminKey } = await ready;
  return {
    url,
    adminKey,
    stop: () => new Promise<void>((resolveStop) => {
      child.removeAllListeners("exit");
      child.once("exit", () => resolveStop());
      child.stdin!.end(); // the launcher stops everything when its input closes
    }),
  };
}
