/**
 * `warden key [--json]`: your answer key's public half and its id, made if there is none yet — what an
 * administrator registers as `approvers/NAME.pub` in the managed folder, so that your `warden approve`
 * (or `warden approve --key FILE` elsewhere) counts as a second person on a two-person card.
 */
import { managedFiles, managedDir } from '../os/managed-dir';
import { keyFile, loadOrCreateKey, publicPem } from './signing-key';

export type KeyCliIo = {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  home: string;
  env?: Readonly<Record<string, string | undefined>>;
};

const HELP = `warden key [--json]
  Prints your public answer key (PEM) on stdout and its key id on stderr, making the key first if
  there is none ($WARDEN_HOME/keys/answers.key). To let your approvals count as a second person on
  another user's two-person cards, an administrator saves the PEM as approvers/NAME.pub in the
  managed folder (/etc/warden/approvers/).
  --json   one JSON object: keyId, publicKey (PEM), file
`;

/** Runs `warden key …`. Returns the exit code: 0 printed, 1 the key could not be made, 2 bad use. Contract: never throws. */
export function runKeyCli(argv: readonly string[], io: KeyCliIo): number {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(HELP);
    return 0;
  }
  const unknown = argv.find((a) => a !== '--json');
  if (unknown !== undefined) {
    io.stderr.write(`warden key: unknown option ${JSON.stringify(unknown)}\nRun 'warden key --help'.\n`);
    return 2;
  }
  let key: ReturnType<typeof loadOrCreateKey>;
  try {
    key = loadOrCreateKey(io.home);
  } catch (err) {
    io.stderr.write(`warden key: the key could not be made: ${(err as Error).message}\n`);
    return 1;
  }
  const pem = publicPem(key);
  if (argv.includes('--json')) {
    io.stdout.write(`${JSON.stringify({ keyId: key.keyId, publicKey: pem, file: keyFile(io.home) })}\n`);
    return 0;
  }
  io.stdout.write(pem);
  const approvers = managedFiles(managedDir(io.env ?? process.env)).approvers;
  io.stderr.write(
    `key id ${key.keyId} (${keyFile(io.home)}); to register it: save the lines above as ${approvers}/NAME.pub\n`,
  );
  return 0;
}
