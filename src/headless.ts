import { awaitMcpServers } from './mcp/headless-start';
import type { Session } from './session';
import { guardIo } from './text/safe-output';

export type HeadlessIo = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

/**
 * Runs one prompt without a UI. Nothing can be approved: anything that would ask is denied with
 * `no_approver`. With `json`, every core event is one JSON line on stdout, then a `result` line.
 * Contract: resolves with the exit code — 0 done, 1 failed or cancelled.
 */
export async function runHeadless(session: Session, prompt: string, options: { json: boolean }, rawIo: HeadlessIo): Promise<number> {
  // Model text, tool reasons and errors are untrusted: every write is made terminal-safe here.
  const io = guardIo(rawIo, options.json ? 'json' : 'text');
  const unsubscribe = session.client.subscribe((event) => {
    if (options.json) io.stdout.write(`${JSON.stringify(event)}\n`);
    else if (event.type === 'error') io.stderr.write(`warden: ${event.message}\n`);
    else if (event.type === 'tool_finished' && event.result.status !== 'executed') io.stderr.write(`warden: ${event.tool} ${event.result.status}${event.result.reason ? `: ${event.result.reason}` : ''}\n`);
  });
  const onSignal = () => session.client.send({ type: 'cancel' });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // No panel to start them later: the configured MCP servers come up (bounded) before the first request.
    for (const line of await awaitMcpServers(session.mcpStarted, () => session.client.snapshot().mcp)) io.stderr.write(`warden: ${line}\n`);
    const result = await session.run(prompt);
    if (options.json) io.stdout.write(`${JSON.stringify({ type: 'result', status: result.status, text: result.text })}\n`);
    else if (result.status === 'done') io.stdout.write(`${result.text}\n`);
    else io.stderr.write(`warden: ${result.text}\n`);
    return result.status === 'done' ? 0 : 1;
  } finally {
    unsubscribe();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
