/** The start banner: the first transcript entry says model, endpoint host (never a key), root, mode and sandbox. */
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoModel } from '../../src/llm/demo-model';
import { endpointHost } from '../../src/llm/endpoint-host';
import type { StartInfo, TranscriptEntry } from '../../src/protocol';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('endpointHost', () => {
  it.each<[string | undefined, string]>([
    [undefined, 'api.openai.com'],
    ['', 'api.openai.com'],
    ['https://api.example.com/v1', 'api.example.com'],
    ['http://127.0.0.1:8080/v1', '127.0.0.1:8080'],
    ['https://user:sk-secret123@llm.example.com/v1', 'llm.example.com'],
    ['https://llm.example.com/v1?api_key=sk-secret123', 'llm.example.com'],
    ['https://llm.example.com/key/sk-secret123', 'llm.example.com'],
    ['not a url sk-secret123', '(unparsable endpoint URL)'],
  ])('%s → %s', (url, host) => {
    const got = endpointHost(url);
    expect(got).toBe(host);
    expect(got).not.toContain('secret');
  });
});

const bannerOf = (transcript: TranscriptEntry[]): StartInfo | undefined => {
  const first = transcript[0];
  return first?.kind === 'banner' ? first.start : undefined;
};

describe('start banner', () => {
  it('is the first transcript entry, with the model, endpoint host, root, mode and sandbox off with its reason', async () => {
    h = await startSession([], {
      session: { endpoint: '127.0.0.1:9999', sandbox: 'off', mode: 'auto-edit' },
    });
    const state = h.session.client.snapshot();
    expect(bannerOf(state.transcript)).toEqual({
      model: 'fake-model',
      demo: false,
      endpoint: '127.0.0.1:9999',
      root: h.root,
      mode: 'auto-edit',
      sandbox: { kind: 'off', reason: 'sandbox is off in the config' },
    });
  });

  it('says bubblewrap when commands are sandboxed, exactly when the status bar does', async () => {
    h = await startSession([], { session: { sandbox: 'auto' } });
    const state = h.session.client.snapshot();
    const banner = bannerOf(state.transcript);
    expect(banner?.sandbox.kind).toBe(state.sandboxed ? 'bubblewrap' : 'off');
    expect(banner?.endpoint).toBeUndefined();
  });

  it('a prompt sent before the sandbox answered comes after the banner, not before it (issue 33)', async () => {
    h = await startSession([{ text: 'hi back' }], {
      session: { sandbox: 'auto', checkSandboxAfterStart: true },
    });
    const { session } = h;
    expect(session.client.snapshot().sandboxChecking).toBe(true);
    // Typed at once: the app has not started the probe yet.
    session.client.send({ type: 'submit', text: 'hello' });
    await expect
      .poll(() => session.client.snapshot().transcript.some((e) => e.kind === 'user'), { timeout: 10_000 })
      .toBe(true);
    const kinds = session.client.snapshot().transcript.map((e) => e.kind);
    expect(kinds[0]).toBe('banner');
    expect(kinds.indexOf('user')).toBeGreaterThan(0);
  });

  it('a demo model shows no endpoint, and the demo notice follows the banner', async () => {
    h = await startSession([], {
      session: { model: createDemoModel(), endpoint: 'api.openai.com', banner: 'DEMO: scripted' },
    });
    const { transcript } = h.session.client.snapshot();
    expect(bannerOf(transcript)).toMatchObject({ demo: true, model: createDemoModel().name });
    expect(bannerOf(transcript)).not.toHaveProperty('endpoint');
    expect(transcript[1]).toMatchObject({ kind: 'notice', text: 'DEMO: scripted' });
  });
});
