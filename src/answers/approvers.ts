/**
 * The people who may give a second approval (two-person cards, src/gate/two-person.ts): their public
 * keys, registered as `approvers/NAME.pub` (PEM, SPKI, Ed25519 — what `warden key` prints) in the
 * managed folder, and in `$WARDEN_HOME/approvers` only when twoPerson is the person's own
 * (src/config/managed.ts decides which folders). An answer signed by one of them is another identity
 * than the requester's; the signature is the boundary, whoever owns the answer file.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from '../policy/safe-read';
import { keyIdOf } from './signing-key';

export type ApproverKey = { name: string; keyId: string; publicKey: KeyObject; file: string };

/** The registered approvers by key id. */
export type Approvers = ReadonlyMap<string, ApproverKey>;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const KEY_FILE_CAP = 16 * 1024;

/**
 * Reads every `NAME.pub` of `dirs` (a missing folder has none; other files are not keys). Contract:
 * throws an Error naming the file for one that is not an Ed25519 public key, cannot be read or has
 * a name that is not plain — a broken registry is never half read.
 */
export function loadApprovers(dirs: readonly string[]): Approvers {
  const found = new Map<string, ApproverKey>();
  for (const dir of dirs) {
    for (const entry of listKeys(dir)) {
      const key = readApprover(join(dir, entry), entry.slice(0, -'.pub'.length));
      if (!found.has(key.keyId)) found.set(key.keyId, key);
    }
  }
  return found;
}

function listKeys(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.pub'))
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new Error(`${dir}: the approvers' keys cannot be listed (${code ?? (err as Error).message})`);
  }
}

function readApprover(file: string, name: string): ApproverKey {
  if (!NAME.test(name))
    throw new Error(`${file}: an approver's name uses letters, digits, . _ and - only (at most 64)`);
  const read = readRegularFile(file, KEY_FILE_CAP);
  if (read.kind === 'missing') throw new Error(`${file}: went away while it was read`);
  if (read.kind === 'refused') throw new Error(`${file}: cannot be read: ${read.reason}`);
  if (read.truncated) throw new Error(`${file}: larger than ${KEY_FILE_CAP / 1024} KB; not a public key`);
  // createPublicKey would take a private key too (and derive its public half): that key is no one's to share.
  if (/PRIVATE KEY/.test(read.text))
    throw new Error(`${file}: holds a private key; register the public key only ('warden key' prints it)`);
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(read.text);
  } catch (err) {
    throw new Error(`${file}: not a PEM public key (${(err as Error).message}); 'warden key' prints one`);
  }
  if (publicKey.asymmetricKeyType !== 'ed25519')
    throw new Error(
      `${file}: a ${publicKey.asymmetricKeyType ?? 'unknown'} key; approvers' keys are Ed25519`,
    );
  return { name, keyId: keyIdOf(publicKey), publicKey, file };
}
