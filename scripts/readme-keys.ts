// Rewrites README.md's keys table from the keymap (components/keys/readme-keys.ts).
// Usage: npx tsx scripts/readme-keys.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withKeysTable } from '../components/keys/readme-keys';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
const next = withKeysTable(readFileSync(file, 'utf8'));
if (next === undefined) {
  process.stderr.write('README.md has no keys table markers (<!-- keys:begin … --> … <!-- keys:end -->)\n');
  process.exit(1);
}
writeFileSync(file, next);
process.stdout.write('README.md: keys table written from the keymap\n');
