import { readFileSync } from 'node:fs';
import { type ConfigFile, ConfigFileSchema } from './schema';
import { formatIssues } from './issues';

export type ConfigFileRead =
  | { kind: 'missing' }
  | { kind: 'ok'; file: ConfigFile }
  | { kind: 'error'; error: string };

/**
 * Reads and validates one config file. A missing file is fine; anything else that is wrong (bad
 * JSON, a wrong field, an unreadable file) is an error naming the file and the field.
 * Contract: never throws.
 */
export function readConfigFile(path: string): ConfigFileRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: `.warden` is a file, so there is no config in it.
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', error: `${path}: cannot read: ${(error as Error).message}` };
  }
  text = text.replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'error', error: `${path}: invalid JSON${where(text, (error as Error).message)}: ${(error as Error).message}` };
  }
  const parsed = ConfigFileSchema.safeParse(value);
  if (!parsed.success) return { kind: 'error', error: formatIssues(path, parsed.error.issues, value).join('\n') };
  return { kind: 'ok', file: parsed.data };
}

/** ` at line L, column C` when the parser told us a position. */
function where(text: string, message: string): string {
  const match = /at position (\d+)/.exec(message);
  if (!match) return text.trim() === '' ? ' (the file is empty)' : '';
  const before = text.slice(0, Number(match[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return ` at line ${line}, column ${column}`;
}
