import { readRegularFile } from '../policy/safe-read';
import { type ConfigFile, ConfigFileSchema } from './schema';
import { formatIssues } from './issues';

export type ConfigFileRead =
  | { kind: 'missing' }
  | { kind: 'ok'; file: ConfigFile }
  | { kind: 'error'; error: string };

const CONFIG_FILE_CAP = 1024 * 1024;

/**
 * Reads and validates one config file. A missing file is fine; anything else that is wrong (bad
 * JSON, a wrong field, an unreadable file, a fifo or a device — never a hang) is an error naming
 * the file and the field.
 * Contract: never throws.
 */
export function readConfigFile(path: string): ConfigFileRead {
  const read = readRegularFile(path, CONFIG_FILE_CAP);
  if (read.kind === 'missing') return { kind: 'missing' };
  if (read.kind === 'refused') return { kind: 'error', error: `${path}: cannot read: ${read.reason}` };
  if (read.truncated)
    return { kind: 'error', error: `${path}: cannot read: larger than ${CONFIG_FILE_CAP / 1024} KB` };
  return parseConfigText(path, read.text);
}

/** Validates a config file's text (read elsewhere, e.g. once for hashing and parsing). Contract: never throws. */
export function parseConfigText(path: string, raw: string): Exclude<ConfigFileRead, { kind: 'missing' }> {
  const text = raw.replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      kind: 'error',
      error: `${path}: invalid JSON${where(text, (error as Error).message)}: ${(error as Error).message}`,
    };
  }
  const parsed = ConfigFileSchema.safeParse(value);
  if (!parsed.success)
    return { kind: 'error', error: formatIssues(path, parsed.error.issues, value).join('\n') };
  const { sandbox, ...rest } = parsed.data;
  if (sandbox === undefined || typeof sandbox === 'string')
    return { kind: 'ok', file: { ...rest, ...(sandbox ? { sandbox } : {}) } };
  return {
    kind: 'ok',
    file: {
      ...rest,
      ...(sandbox.mode ? { sandbox: sandbox.mode } : {}),
      ...(sandbox.readPaths ? { sandboxReadPaths: sandbox.readPaths } : {}),
      ...(sandbox.network ? { sandboxNetwork: sandbox.network } : {}),
    },
  };
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
