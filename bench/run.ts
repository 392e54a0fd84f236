// Runs every bench/*.bench.ts in its own process, one after another, and lets each print its
// figures. `npm run bench -- grep` runs only the benches whose file name contains "grep".
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
for (const file of benches) {
  console.log(`\n== ${file}`);
  execFileSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit' });
}
