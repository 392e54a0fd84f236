/**
 * The key that signs answers given outside the app (`warden approve` in another terminal): an Ed25519
 * key in `$WARDEN_HOME/keys/answers.key`, made on first use, readable by this user only. No command
 * warden runs can read it (the sandbox shows commands a private home, and `$WARDEN_HOME` inside a
 * project is hidden and protected for tools), so an answer file the model wrote is never signed.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from '../policy/safe-read';

export type SigningKey = { privateKey: KeyObject; publicKey: KeyObject; keyId: string };

export const keyFile = (home: string): string => join(home, 'keys', 'answers.key');

/** Reads the key, or makes it when there is none yet. Contract: throws an Error saying what failed. */
export function loadOrCreateKey(home: string): SigningKey {
  const existing = readKey(home);
  if (existing) return existing;
  const path = keyFile(home);
  mkdirSync(join(home, 'keys'), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Written whole under another name, then linked into place: two first uses at once keep one key.
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, pem, { mode: 0o600 });
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(temp);
  }
  const key = readKey(home);
  if (!key) throw new Error(`${path} could not be read back after it was made.`);
  return key;
}

/** The key if there is one. Contract: never throws; an unreadable or damaged key is none. */
export function readKey(home: string): SigningKey | undefined {
  try {
    const privateKey = createPrivateKey(readFileSync(keyFile(home), 'utf8'));
    if (privateKey.asymmetricKeyType !== 'ed25519') return undefined;
    const publicKey = createPublicKey(privateKey);
    return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
  } catch {
    return undefined;
  }
}

/**
 * The Ed25519 private key in a PEM file of the person's choosing (`warden approve --key FILE`: a
 * registered approver's key). Contract: throws an Error saying what is wrong with the file.
 */
export function readKeyFile(path: string): SigningKey {
  const read = readRegularFile(path, 16 * 1024);
  if (read.kind === 'missing') throw new Error(`${path}: no such file`);
  if (read.kind === 'refused') throw new Error(`${path}: cannot be read: ${read.reason}`);
  if (read.truncated) throw new Error(`${path}: too large for a key`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(read.text);
  } catch (err) {
    throw new Error(`${path}: not a PEM private key (${(err as Error).message})`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${path}: not an Ed25519 key`);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** The public half as PEM (SPKI), as `approvers/NAME.pub` holds it. */
export function publicPem(key: Pick<SigningKey, 'publicKey'>): string {
  return key.publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

/** The first 16 hex digits of the public key's SHA-256: the id the audit names. */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex').slice(0, 16);
}
