import { posix } from 'node:path';
import type { PipePos, RawCommand, Redirect, SubRange } from './command-raw';
import { isDevicePath } from './command-paths';
import { FETCHERS, programName } from './command-programs';
import { unwrap } from './command-unwrap';
import { decodeAnsiC, isDynamic } from './command-words';

// Facts about how commands connect: pipelines, substitutions, redirections, functions.

const WRITE_OPS: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** True when the command, or any wrapper layer of it, fetches from the network (`timeout 5 curl …`). */
export function isFetch(raw: RawCommand): boolean {
  return unwrap(raw.args).layers.some((layer) => FETCHERS.has(programName(layer[0]?.value)));
}

/** True when a fetch runs inside any of these substitutions (`$(curl …)`, `<(wget -O- …)`). */
export function substitutionsFetch(all: readonly RawCommand[], ranges: readonly SubRange[]): boolean {
  return ranges.some((r) => all.slice(r.from, r.to).some(isFetch));
}

/** The pipeline position this command reads its input from, if its input is a pipe. */
export function readsPipe(raw: RawCommand): PipePos | undefined {
  for (let i = raw.pipes.length - 1; i >= 0; i--) {
    const pos = raw.pipes[i] as PipePos;
    if (pos.stage > 0) return pos;
  }
  return undefined;
}

/** Every command in the stages before `pos` in its pipeline (including their substitutions). */
export function upstream(all: readonly RawCommand[], pos: PipePos, onlyPrevious = false): RawCommand[] {
  return all.filter((c) =>
    c.pipes.some((p) => p.id === pos.id && (onlyPrevious ? p.stage === pos.stage - 1 : p.stage < pos.stage)),
  );
}

/**
 * The literal text a single previous pipeline stage prints, when it can be known:
 * `echo 'rm -rf /' | sh`, `printf 'x' | bash`, `cat <<'EOF' | sh`.
 */
export function literalOutput(stage: readonly RawCommand[]): string | undefined {
  if (stage.length !== 1) return undefined;
  const only = stage[0] as RawCommand;
  const argv = only.args.map((a) => a.value);
  const name = programName(argv[0]);
  if (argv.slice(1).some(isDynamic)) return undefined;
  if (name === 'echo') {
    const flags = /^-[neE]+$/.test(argv[1] ?? '') ? (argv[1] as string) : '';
    const text = argv.slice(flags ? 2 : 1).join(' ');
    return flags.includes('e') ? decodeAnsiC(text) : text;
  }
  // printf: only a lone format without conversions prints itself (escapes decoded).
  if (name === 'printf' && argv.length === 2 && !/%[^%]/.test(argv[1] as string)) {
    return decodeAnsiC((argv[1] as string).replaceAll('%%', '%'));
  }
  if (name === 'cat' && argv.length === 1 && only.stdin && !only.stdin.dynamic) return only.stdin.text;
  return undefined;
}

const isWrite = (r: Redirect): boolean =>
  WRITE_OPS.has(r.op) || (r.op === '>&' && !/^(\d+|-)$/.test(r.target.value));

/** Files this command writes through `>`, `>>`, `&>`, … (not `/dev/null` and friends). */
export function writtenFiles(redirects: readonly Redirect[]): Redirect[] {
  return redirects.filter((r) => isWrite(r) && !HARMLESS_TARGETS.test(r.target.value));
}

/** The device a redirection writes to (`> /dev/sda`), if any. */
export function deviceWrite(redirects: readonly Redirect[]): string | undefined {
  return redirects.find((r) => isWrite(r) && isDevicePath(r.target.value))?.target.value;
}

/** A function that starts itself in a pipeline or in the background: `:(){ :|:& };:` and renamed kin. */
export function isForkBomb(raw: RawCommand, name: string): boolean {
  return raw.functions.includes(name) && (raw.pipes.length > 0 || raw.background);
}

/** Code fed to a command's standard input from the command line itself, and whether it is known. */
export function stdinSubstitutions(raw: RawCommand): SubRange[] {
  const fromRedirects = raw.redirects
    .filter((r) => r.op === '<' || r.op === '<>')
    .flatMap((r) => r.target.subs);
  return [...(raw.stdin?.subs ?? []), ...fromRedirects];
}

const URL_PATH = /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/(.+)$/i;

/** The file name `curl -O` / plain `wget` saves a URL under. */
function remoteName(url: string): string | undefined {
  const path = URL_PATH.exec(url)?.[1]?.split(/[?#]/)[0];
  return path?.split('/').pop() || undefined;
}

/**
 * Files a fetch in this line saves (`curl -o x`, `curl -O url`, `wget url`, `wget -O x`, `curl url > x`),
 * so that running one of them (`sh install.sh`, `./install.sh`) counts as running downloaded code.
 */
export function downloadedFiles(all: readonly RawCommand[]): Set<string> {
  const files = new Set<string>();
  const add = (name: string | undefined) => {
    if (name && name !== '-' && !isDynamic(name)) files.add(posix.normalize(name));
  };
  for (const raw of all) {
    const layers = unwrap(raw.args).layers;
    const argv = (layers[layers.length - 1] ?? []).map((a) => a.value);
    const name = programName(argv[0]);
    if (!FETCHERS.has(name)) continue;
    for (const r of writtenFiles(raw.redirects)) add(r.target.value);
    const outLetter = name === 'curl' ? 'o' : name.startsWith('wget') ? 'O' : '';
    const urls = argv.filter((a) => URL_PATH.test(a));
    let named = false;
    argv.forEach((a, i) => {
      const long = /^--(output|output-document)(=(.*))?$/.exec(a);
      if (long) {
        named = true;
        add(long[3] ?? argv[i + 1]);
      } else if (/^-[A-Za-z]+/.test(a) && outLetter && a.includes(outLetter)) {
        named = true;
        const rest = a.slice(a.indexOf(outLetter) + 1);
        add(rest || argv[i + 1]);
      }
      if (name === 'curl' && (/^-[A-Za-z]*O/.test(a) || a.startsWith('--remote-name')))
        for (const u of urls) add(remoteName(u));
    });
    if (name.startsWith('wget') && !named) for (const u of urls) add(remoteName(u));
  }
  return files;
}
