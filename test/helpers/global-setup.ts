import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Every test run gets a throw-away WARDEN_HOME and HOME, so no test can touch the real home. */
export default function setup(): () => void {
  const home = mkdtempSync(join(tmpdir(), 'warden-test-home-'));
  process.env.WARDEN_HOME = join(home, '.warden');
  process.env.HOME = home;
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  return () => rmSync(home, { recursive: true, force: true });
}
