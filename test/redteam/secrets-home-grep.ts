/**
 * Red-team helper: every file under a temp WARDEN_HOME, read as text, and whether a secret (or its
 * JSON-escaped form) is in any of them. A leak is a leak wherever it lands: audit, sessions, index.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Paths (relative to `home`) of the files that hold `secret` in the clear or JSON-escaped. */
export function filesHolding(home: string, secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const out: string[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path, name);
      else if (entry.isFile()) {
        const text = readFileSync(path, 'utf8');
        if (name.includes(secret) || text.includes(secret) || text.includes(escaped)) out.push(name);
      }
    }
  };
  walk(home, '');
  return out;
}

/** All text of all files under `home`, for checks that benign text stayed readable. */
export function allText(home: string): string {
  let out = '';
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out += `${readFileSync(path, 'utf8')}\n`;
    }
  };
  walk(home);
  return out;
}
