import { MODES, type Mode } from '../protocol';

/** What the command line asked for. `run` starts the app (or the headless runner). */
export type CliArgs =
  | {
      kind: 'run';
      /** From `-p/--prompt` or the words after the flags. */
      prompt?: string;
      headless: boolean;
      /** JSON lines on stdout; only with `--headless`. */
      json: boolean;
      root?: string;
      mode?: Mode;
      model?: string;
      demo: boolean;
      /** `--trust-project`: the project's .warden files count for this run, as if trusted (nothing is recorded). */
      trustProject: boolean;
      /** `--continue`: resume this project's most recent saved session. */
      continue: boolean;
      /** `--resume`: pick a saved session of this project to resume (the app's picker). */
      resume: boolean;
      /** `--resume ID`: resume that session (the only way with `--headless`). */
      resumeId?: string;
      /** `--on-ask park|deny` (headless): what a card does with nobody to ask (default: the config's). */
      onAsk?: 'deny' | 'park';
      /** `--fork` (with `--continue`): continue a copy of the session, as a new one (another warden may hold it). */
      fork?: boolean;
    }
  | { kind: 'help' }
  | { kind: 'version' }
  /** `warden audit …`: the rest goes to the audit CLI untouched. */
  | { kind: 'audit'; argv: string[] }
  /** `warden pending …`: the requests waiting for a person, listed. */
  | { kind: 'pending'; argv: string[] }
  /** `warden approve|reject|skip ID …`: an answer to a waiting request, from this terminal. */
  | { kind: 'answer'; verb: 'approve' | 'reject' | 'skip'; argv: string[] }

  /** `warden policy test …`: what the gate would decide for a command, without running it. */
  | { kind: 'policy'; argv: string[] }
  /** `warden key`: your answer key's public half and id, for an administrator to register as an approver. */
  | { kind: 'key'; argv: string[] };

export type ParseArgsResult = { ok: true; args: CliArgs } | { ok: false; error: string };

type RunArgs = Extract<CliArgs, { kind: 'run' }>;

const VALUE_FLAGS: Record<string, 'prompt' | 'root' | 'mode' | 'model' | 'onAsk'> = {
  '--on-ask': 'onAsk',
  '-p': 'prompt',
  '--prompt': 'prompt',
  '--root': 'root',
  '--mode': 'mode',
  '--model': 'model',
};
const BOOLEAN_FLAGS: Record<
  string,
  'headless' | 'json' | 'demo' | 'trustProject' | 'continue' | 'resume' | 'fork'
> = {
  '--fork': 'fork',
  '-c': 'continue',
  '--continue': 'continue',
  '--resume': 'resume',
  '--headless': 'headless',
  '--json': 'json',
  '--demo': 'demo',
  '--trust-project': 'trustProject',
};

/**
 * Parses `process.argv.slice(2)`. `--flag value` and `--flag=value` both work, a repeated flag
 * keeps its last value (so aliases can be overridden), `--` ends the flags, `audit` as the first
 * word is the audit subcommand. `-h/--help` and `-v/--version` win over everything else.
 * Contract: never throws; any problem is `{ok:false, error}` (the caller exits with code 2).
 */
export function parseArgs(argv: readonly string[]): ParseArgsResult {
  if (argv[0] === 'audit') return { ok: true, args: { kind: 'audit', argv: argv.slice(1) } };
  if (argv[0] === 'pending') return { ok: true, args: { kind: 'pending', argv: argv.slice(1) } };
  if (argv[0] === 'approve' || argv[0] === 'reject' || argv[0] === 'skip')
    return { ok: true, args: { kind: 'answer', verb: argv[0], argv: argv.slice(1) } };
  if (argv[0] === 'policy') return { ok: true, args: { kind: 'policy', argv: argv.slice(1) } };
  if (argv[0] === 'key') return { ok: true, args: { kind: 'key', argv: argv.slice(1) } };
  const flagsPart = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  if (flagsPart.some((a) => a === '-h' || a === '--help')) return { ok: true, args: { kind: 'help' } };
  if (flagsPart.some((a) => a === '-v' || a === '--version')) return { ok: true, args: { kind: 'version' } };

  const args: RunArgs = {
    kind: 'run',
    headless: false,
    json: false,
    demo: false,
    trustProject: false,
    continue: false,
    resume: false,
  };
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      words.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    // `--resume ID`: a session id after it is that session; anything else leaves the picker.
    if (flag === '--resume') {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[i + 1];
      if (value !== undefined && SESSION_ID.test(value)) {
        args.resumeId = value;
        if (eq < 0) i++;
      } else if (eq > 0) return fail(`--resume=${value}: expected a session id (see /resume in the app)`);
    }
    const bool = BOOLEAN_FLAGS[flag];
    if (bool) {
      if (eq > 0 && flag !== '--resume') return fail(`${flag} takes no value`);
      args[bool] = true;
      continue;
    }
    const field = VALUE_FLAGS[flag];
    if (!field) return fail(`unknown flag ${flag}${suggest(flag)}`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('-') && value !== '-')) {
      const hint = field === 'prompt' ? ` (a prompt that starts with "-" can be given as ${flag}=...)` : '';
      return fail(`${flag} needs a value${hint}`);
    }
    const error = setValue(args, field, value);
    if (error) return fail(`${flag}: ${error}`);
  }

  const positional = words.join(' ').trim();
  if (positional !== '') {
    if (args.prompt !== undefined)
      return fail('give the prompt either with -p/--prompt or as words, not both');
    args.prompt = positional;
  }
  if (args.json && !args.headless) return fail('--json only works with --headless');
  if (args.demo && args.model !== undefined) return fail('--demo uses the scripted demo model; drop --model');
  if (args.continue && args.resume)
    return fail('give either --continue (the latest session) or --resume (pick one)');
  if (args.fork && !args.continue)
    return fail('--fork continues a copy of the latest session: use it with --continue');
  if (args.resume && args.headless && args.resumeId === undefined)
    return fail(
      '--resume without a session id shows a picker, which needs the app; with --headless give the id (--resume ID) or use --continue',
    );
  if (args.onAsk !== undefined && !args.headless)
    return fail('--on-ask is for --headless runs (in the app, you are the one asked)');
  if (args.demo && (args.continue || args.resume))
    return fail('the demo runs on a fresh scratch project each time; there is no demo session to resume');
  return { ok: true, args };
}

/** warden's session ids (UUIDs), as `--resume ID` takes them. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function setValue(
  args: RunArgs,
  field: 'prompt' | 'root' | 'mode' | 'model' | 'onAsk',
  value: string,
): string | undefined {
  if (value.trim() === '') return 'expected a non-empty value';
  if (field === 'onAsk') {
    if (value !== 'deny' && value !== 'park') return `expected deny or park, got "${value}"`;
    args.onAsk = value;
    return undefined;
  }
  if (field === 'mode') {
    if (!(MODES as readonly string[]).includes(value))
      return `expected one of ${MODES.join(', ')}, got "${value}"`;
    args.mode = value as Mode;
    return undefined;
  }
  args[field] = value;
  return undefined;
}

const fail = (error: string): ParseArgsResult => ({ ok: false, error });

const KNOWN_FLAGS = [
  ...Object.keys(VALUE_FLAGS),
  ...Object.keys(BOOLEAN_FLAGS),
  '--help',
  '--version',
].filter((f) => f.startsWith('--'));

/** ` (did you mean --mode?)` for a near miss such as `--mdoe` or `-mode`. */
function suggest(flag: string): string {
  const bare = flag.replace(/^-+/, '');
  const hit = KNOWN_FLAGS.find((known) => {
    const k = known.slice(2);
    return k === bare || (k.length === bare.length && [...k].sort().join('') === [...bare].sort().join(''));
  });
  return hit ? ` (did you mean ${hit}?)` : '';
}

/** The text `warden --help` prints. */
export function helpText(version?: string): string {
  return `warden${version ? ` ${version}` : ''}: a terminal coding agent that asks before it acts.

Usage:
  warden [options] [prompt]        start the full-screen app (optionally with a first prompt)
  warden --headless -p PROMPT      run one task without the full-screen UI
  warden audit [options]           show the audit log (warden audit --help)
  warden pending [--json]          list the requests waiting for a person, in every session
  warden approve ID [--confirm-high] [--reason TEXT] [--key FILE]
  warden reject ID --reason TEXT
  warden skip ID                   answer a waiting request from this terminal (signed; the
                                   warden holding it re-checks it like any decision)
  warden key [--json]              your answer key's public half and id (to register as an approver)
  warden policy test "<command>"   which rule decides a command, the verdict, risk and why,
                                   without running it (warden policy --help)

Options:
  -p, --prompt PROMPT   the first prompt (or give it as words after the options)
      --headless        no UI: print the transcript and exit when the task ends
      --json            with --headless: print events as JSON lines
      --on-ask deny|park
                        with --headless: a call that needs a person fails (deny, the default) or
                        parks the run (exit 5) until 'warden approve' and --resume ID
      --root DIR        project root (default: the current directory)
      --mode MODE       ${MODES.join(' | ')} (default: manual)
      --model NAME      model name for the OpenAI-compatible endpoint
      --demo            use the scripted demo model on a scratch demo project
      --trust-project   let this project's .warden rules and settings loosen the gate for this
                        run without the trust card (nothing is recorded in trust.json)
  -c, --continue        resume this project's latest saved session (also with --headless)
  --fork                with --continue: continue a copy of it as a new session (one that
                        another warden holds is refused without it)
      --resume [ID]     resume session ID, or pick one of this project's (title, age, turns)
  -h, --help            show this help
  -v, --version         show the version

Environment:
  OPENAI_API_KEY        API key; without one warden runs the demo model
  OPENAI_BASE_URL       any OpenAI-compatible endpoint
  WARDEN_MODEL          model name (like --model)
  WARDEN_MODE           starting mode (like --mode)
  WARDEN_HOME           settings, policy and audit log (default: ~/.warden)
  WARDEN_SYSTEM_DIR     the managed folder (default: /etc/warden; refused while /etc/warden holds one)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY
                        the model's requests go through this proxy (lower case too)
  NODE_EXTRA_CA_CERTS   a CA file Node trusts as well (a corporate proxy's, a private CA)

Files:
  /etc/warden/config.json, policy.json     the managed settings and rules: nothing below loosens them
  /etc/warden/approvers/NAME.pub           the keys of the people who may give a second approval
  $WARDEN_HOME/config.json, policy.json    your settings and rules
  $WARDEN_HOME/AGENTS.md, commands/*.md    your instructions for every agent, your slash commands
  $WARDEN_HOME/trust.json                  projects you trusted, bound to their files' content
  <project>/.warden/config.json, policy.json, commands/*.md
                                           a project's own; what loosens counts only once trusted
  $WARDEN_HOME/audit/audit-YYYY-MM-DD.jsonl
  $WARDEN_HOME/sessions/<id>.jsonl         saved conversations (redacted); index/<id>.json lists them
`;
}
