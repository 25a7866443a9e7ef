/** The committed types are exactly what openapi-typescript makes of the committed OpenAPI
 * document (a Python test checks that document against the live API's). */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

test("src/schema.ts is generated from openapi.json", () => {
  const scratch = mkdtempSync(join(tmpdir(), "hearth-schema-"));
  try {
    const out = join(scratch, "schema.ts");
    const cli = join(PACKAGE, "node_modules", "openapi-typescript", "bin", "cli.js");
    execFileSync(process.execPath, [cli, "openapi.json", "--default-non-nullable", "false", "--output", out], {
      cwd: PACKAGE, stdio: "pipe",
    });
    const fresh = readFileSync(out, "utf8");
    const committed = readFileSync(join(PACKAGE, "src", "schema.ts"), "utf8");
    assert.ok(fresh === committed, "src/schema.ts is stale: run `npm run generate` in clients/typescript");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
