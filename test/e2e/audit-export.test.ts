/**
 * The audit log, collected where the team looks (issue 32 §1–2), through the real binary: a scripted
 * session whose calls are allowed by the policy and by a rule, denied by a rule, and asked with
 * nobody there. Every line carries who and where; every line reaches a loopback OTLP/HTTP receiver
 * as a `tool_decision` / `tool_result` event with the fields README names; and a receiver that is
 * not there changes nothing but the export's own count: the same audit lines, the same exit code.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { verifyDays } from '../../src/audit/chain/verify';
import { listAuditDays } from '../../src/audit/reader';
import { auditLines } from '../helpers/audit-lines';
import { fakeModel, tempPlaces, useCleanup, type Places } from '../helpers/headless-run';
import type { FakeOpenAI } from '../helpers/fake-openai';
import { deadPort, startOtlpReceiver } from '../helpers/otlp-receiver';
import { WARDEN_BIN } from '../helpers/pty';

const later = useCleanup();
const TOKEN = 'ghp_Zq9Xw8Vv7Uu6Tt5Ss4Rr3Qq2Pp1Oo0Nn9Mm8';

/** The fields README's "Teams" section names for a `tool_decision` event, and those of `tool_result`. */
const DECISION_FIELDS = [
  'event.name',
  'event.timestamp',
  'event.sequence',
  'session.id',
  'app.version',
  'user.name',
  'tool_name',
  'decision',
  'source',
  'tool_parameters',
  'warden.phase',
  'warden.policy_decision',
  'warden.approver',
  'warden.rule',
  'warden.risk',
  'warden.agent_id',
  'warden.task_id',
  'warden.args_hash',
  'warden.host',
  'warden.project.root',
  'warden.project.remote',
  'warden.model',
  'warden.audit.seq',
  'warden.audit.prev_hash',
];
const RESULT_FIELDS = ['success', 'decision_type', 'decision_source', 'warden.outcome'];

/** A project (a git checkout whose remote URL holds a token) and a home whose policy allows and denies. */
function places(name: string): Places {
  const at = tempPlaces(later, name, { 'a.txt': 'alpha\n' });
  mkdirSync(join(at.root, '.git'));
  writeFileSync(
    join(at.root, '.git', 'config'),
    `[remote "origin"]\n\turl = https://x-access-token:${TOKEN}@github.com/team/app.git\n`,
  );
  writeFileSync(
    join(at.home, 'policy.json'),
    JSON.stringify({
      rules: [
        { tool: 'write_file', when: { path: 'out/**' }, decision: 'allow' },
        { tool: 'execute_command', when: { command: 'rm *' }, decision: 'deny', message: 'no rm here' },
      ],
    }),
  );
  return at;
}

/** Reads a.txt (policy), writes out/b.txt (rule), runs rm (denied by rule), writes c.txt (asks: nobody there). */
const SCRIPT = [
  {
    text: 'Working.',
    toolCalls: [
      { name: 'read_file', args: { path: 'a.txt' } },
      { name: 'write_file', args: { path: 'out/b.txt', content: 'beta\n' } },
      { name: 'execute_command', args: { command: 'rm -rf build' } },
      { name: 'write_file', args: { path: 'c.txt', content: 'gamma\n' } },
    ],
  },
];

function run(at: Places, model: FakeOpenAI, env: Record<string, string>) {
  return new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [WARDEN_BIN, '--headless', '--root', at.root, '-p', 'do the work'],
      {
        cwd: at.root,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: at.home,
          TMPDIR: tmpdir(),
          WARDEN_HOME: at.home,
          OPENAI_BASE_URL: model.url,
          OPENAI_API_KEY: 'k',
          WARDEN_MODEL: 'fake-model',
          ...env,
        },
      },
      (error, _stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr) }),
    );
  });
}

/** A line without what differs between two runs of the same script (times, ids, the chain, the root). */
function comparable(line: Record<string, unknown>): Record<string, unknown> {
  const { ts, sessionId, requestId, seq, prevHash, durationMs, waitMs, project, ...rest } = line;
  return { ...rest, project: { ...(project as object), root: '<root>' } };
}

describe('the audit log, exported', () => {
  it('every line carries who and where, and reaches the receiver as an event with the fields README names', async () => {
    const at = places('export');
    const receiver = await startOtlpReceiver();
    later(() => receiver.close());
    const model = await fakeModel(later, SCRIPT);
    const result = await run(at, model, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(result.code).toBe(3);

    const lines = auditLines(at.home);
    const root = realpathSync(at.root);
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) {
      expect(line).toMatchObject({
        user: expect.any(String),
        host: expect.any(String),
        project: { root, remote: 'https://[REDACTED]@github.com/team/app.git' },
        wardenVersion: expect.any(String),
        model: 'fake-model',
        seq: expect.any(Number),
        prevHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
    }
    const audit = join(at.home, 'audit');
    expect(verifyDays(audit, listAuditDays(audit), listAuditDays(audit)).broken).toBeUndefined();

    // One event per line, matched by the line's link; the receiver got JSON at /v1/logs.
    expect(
      receiver.requests.every((r) => r.path === '/v1/logs' && r.contentType === 'application/json'),
    ).toBe(true);
    expect(receiver.events).toHaveLength(lines.length);
    const byLink = new Map(receiver.events.map((e) => [e.attributes['warden.audit.prev_hash'], e]));
    for (const line of lines) {
      const event = byLink.get(line.prevHash);
      expect(event, `event for ${line.tool} ${line.phase}`).toBeDefined();
      const name =
        line.phase === 'outcome'
          ? 'tool_result'
          : line.phase === 'requested'
            ? 'approval_requested'
            : 'tool_decision';
      expect(event?.eventName).toBe(name);
      expect(event?.body).toBe(`warden.${name}`);
      expect(event?.resource).toMatchObject({ 'service.name': 'warden' });
      const fields =
        name === 'tool_result'
          ? [...DECISION_FIELDS.filter((f) => f !== 'decision' && f !== 'source'), ...RESULT_FIELDS]
          : name === 'tool_decision'
            ? DECISION_FIELDS
            : [];
      for (const field of fields)
        expect(event?.attributes, `${name} ${line.tool}: ${field}`).toHaveProperty([field]);
      expect(event?.attributes).toMatchObject({
        'session.id': line.sessionId,
        tool_name: line.tool,
        'warden.risk': line.risk,
        'warden.rule': line.rule,
        'warden.approver': line.approver,
        'warden.audit.seq': line.seq,
        ...(line.requestId ? { 'warden.request_id': line.requestId } : {}),
      });
    }
    // Each way a call was decided, as Claude Code's tool_decision says it.
    const decisions = receiver.events
      .filter((e) => e.eventName === 'tool_decision')
      .map((e) => [
        e.attributes.tool_name,
        e.attributes.decision,
        e.attributes.source,
        e.attributes['warden.rule'],
      ]);
    expect(decisions).toEqual(
      expect.arrayContaining([
        ['read_file', 'accept', 'config', 'default-allow-read_file'],
        ['write_file', 'accept', 'config', expect.stringContaining('user')],
        ['execute_command', 'reject', 'config', expect.any(String)],
        ['write_file', 'reject', 'user_abort', expect.any(String)],
      ]),
    );
    // The token in the remote reached neither the file nor the receiver.
    const day = listAuditDays(audit)[0];
    expect(readFileSync(join(audit, `audit-${day}.jsonl`), 'utf8')).not.toContain(TOKEN);
    expect(JSON.stringify(receiver.events)).not.toContain(TOKEN);
    // The session's note: everything sent.
    const notes = readFileSync(join(audit, `export-${day}.jsonl`), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(notes.at(-1) ?? '{}')).toMatchObject({ sent: lines.length, failed: 0, dropped: 0 });
  });

  it('README names every field the test holds the events to', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const teams = readme.slice(readme.indexOf('## Teams'));
    for (const field of [...DECISION_FIELDS, ...RESULT_FIELDS]) expect(teams).toContain(`\`${field}\``);
  });

  it('a receiver that is not there changes nothing else: the same lines, the same exit, the failures counted', async () => {
    const plain = places('export-plain');
    const dead = places('export-dead');
    const port = await deadPort();
    const [a, b] = await Promise.all([fakeModel(later, SCRIPT), fakeModel(later, SCRIPT)]);
    const without = await run(plain, a, {});
    const withDead = await run(dead, b, {
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: `http://127.0.0.1:${port}/v1/logs`,
    });
    expect(withDead.code).toBe(without.code);
    const plainLines = auditLines(plain.home);
    const deadLines = auditLines(dead.home);
    expect(deadLines.map(comparable)).toEqual(plainLines.map(comparable));
    const audit = join(dead.home, 'audit');
    const day = listAuditDays(audit)[0];
    const note = JSON.parse(
      readFileSync(join(audit, `export-${day}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .at(-1) ?? '{}',
    );
    expect(note).toMatchObject({
      sent: 0,
      failed: deadLines.length,
      endpoint: `http://127.0.0.1:${port}/v1/logs`,
    });
    // warden audit --stats shows the count.
    const stats = await new Promise<string>((resolve) =>
      execFile(
        process.execPath,
        [WARDEN_BIN, 'audit', '--stats', '--date', day ?? ''],
        { env: { PATH: process.env.PATH ?? '', HOME: dead.home, WARDEN_HOME: dead.home } },
        (_e, stdout) => resolve(String(stdout)),
      ),
    );
    expect(stats).toContain(
      `export to http://127.0.0.1:${port}/v1/logs: 0 sent, ${deadLines.length} failed, 0 dropped`,
    );
  });
});
