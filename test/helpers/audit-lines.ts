import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest } from './fake-openai';

/** The day files of an audit folder, oldest first: not its append lock or the writers' anchors. */
export const auditDayFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => /^audit-\d{4}-\d{2}-\d{2}\.jsonl$/.test(f))
    .sort();

/** Every line of every audit day file under `home`, parsed (a test reads what really reached the disk). */
// `any`: a test reads whatever field a record holds on disk, typed or not.
export const auditLines = (home: string): any[] =>
  auditDayFiles(join(home, 'audit')).flatMap((f) =>
    readFileSync(join(home, 'audit', f), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  );

/** The user messages of a request to the fake model, as one text. */
export const userTexts = (req: RecordedRequest | undefined): string =>
  (req?.body.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content))
    .join('\n');
