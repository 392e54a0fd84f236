// Writes what is generated from the config schemas: README's settings table (between its
// config-table markers) and assets/schema/{config,policy}.schema.json. `--check` writes nothing and
// exits 1 when a file is not what the schemas generate (test/config/config-docs.test.ts checks too).
// Usage: npx tsx scripts/config-docs.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedFiles } from '../src/config/config-docs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
let stale = 0;
for (const { path, render } of generatedFiles()) {
  const file = join(root, path);
  const now = readFileSync(file, 'utf8');
  const wanted = render(now);
  if (now === wanted) continue;
  stale++;
  if (check) console.error(`${path} is not what the schemas generate; run: npx tsx scripts/config-docs.ts`);
  else {
    writeFileSync(file, wanted);
    console.log(`wrote ${path}`);
  }
}
if (check && stale > 0) process.exit(1);
