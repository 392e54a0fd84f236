// Many agents asking at once (issue 16, "keep it flat"): the fake model has the main agent start
// 8 sub-agents that each write 5 files, so 40 approval cards queue in the drawer; the person
// approves each as soon as it takes keys. Prints approve key → the next card on screen, median and
// p95, next to the same with 2 sub-agents (10 cards) in the same run: a longer queue should not make
// the next card slower. The real bundled binary in a pty; the runs alternate.
import { benchTempDir } from './temp-dir';
import { type RecordedRequest, startFakeOpenAI } from '../test/helpers/fake-openai';
import { startWarden } from '../test/helpers/pty';
import { median, percentile, printRow } from './stats';

const RUNS = Number(process.env.QUEUE_RUNS ?? 3);
const WRITES = 5;
const tempDir = benchTempDir;
const firstUser = (req: RecordedRequest) =>
  String(req.body.messages.find((m) => m.role === 'user')?.content ?? '');
const toolResults = (req: RecordedRequest) => req.body.messages.filter((m) => m.role === 'tool').length;

/** The main agent starts `agents` sub-agents; each writes WRITES files, one per model answer. */
function script(agents: number) {
  return (req: RecordedRequest) => {
    const task = /^AGENT-(\d+)/.exec(firstUser(req));
    if (task) {
      const done = toolResults(req);
      return done < WRITES
        ? { toolCalls: [{ name: 'write_file', args: { path: `a${task[1]}-${done}.txt`, content: 'x\n' } }] }
        : { text: `agent ${task[1]} done` };
    }
    if (toolResults(req) === 0)
      return {
        toolCalls: [
          {
            name: 'spawn_agents',
            args: {
              agents: Array.from({ length: agents }, (_, k) => ({
                name: `agent${k}`,
                task: `AGENT-${k} write files`,
              })),
            },
          },
        ],
      };
    return { text: 'QUEUE-FINISHED' };
  };
}

/** The path of the card at the head of the drawer, or undefined when none is shown. */
function cardPath(screen: string): string | undefined {
  if (!screen.includes('Approval needed')) return undefined;
  return /what\s+write_file (\S+)/.exec(screen)?.[1];
}

/** One session: every card approved in turn; returns each approve → next card time (ms). */
async function queue(agents: number): Promise<number[]> {
  const root = tempDir('warden-bench-queue-');
  const home = tempDir('warden-bench-home-');
  const step = script(agents);
  const fake = await startFakeOpenAI([], { whenExhausted: step });
  const app = startWarden(
    ['--root', root, 'split the work'],
    { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', WARDEN_HOME: home },
    { cols: 120, rows: 40 },
  );
  const times: number[] = [];
  try {
    for (let left = agents * WRITES; left > 0; left--) {
      // The card takes keys once its grace window is over: its key hint is back on screen.
      await app.waitUntil(
        (s) => cardPath(s) !== undefined && s.includes('y approve ·') && !s.includes('keys paused'),
        60_000,
        'a card that takes keys',
      );
      const path = cardPath(app.screen());
      const pressed = performance.now();
      app.press('y');
      if (left === 1) break;
      await app.waitUntil(
        (s) => {
          const now = cardPath(s);
          return now !== undefined && now !== path;
        },
        60_000,
        'the next card',
      );
      times.push(performance.now() - pressed);
    }
    await app.waitFor('QUEUE-FINISHED', 60_000);
  } finally {
    app.kill();
    await app.exited;
    await fake.close();
  }
  return times;
}

const many: number[] = [];
const few: number[] = [];
for (let run = 0; run < RUNS; run++) {
  few.push(...(await queue(2)));
  many.push(...(await queue(8)));
}
printRow(
  'approve → next card, 8 agents × 5 writes queued (ms)',
  `median ${median(many).toFixed(1)}, p95 ${percentile(many, 95).toFixed(1)} (${many.length} cards)`,
);
printRow(
  '  2 agents × 5 writes, same run (ms)',
  `median ${median(few).toFixed(1)}, p95 ${percentile(few, 95).toFixed(1)} (8 agents: ${(median(many) / median(few)).toFixed(2)}×)`,
);
