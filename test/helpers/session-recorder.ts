import { createSessionRecorder, type SessionRecorder } from '../../src/session/saved/store';

/**
 * A session recorder writing under `home` for project `/p`, as the tests that read its files back
 * need it: a write error fails the test instead of being reported to nobody.
 */
export function testRecorder(home: string, sessionId = 's1'): SessionRecorder {
  return createSessionRecorder({
    home,
    sessionId,
    root: '/p',
    model: 'm',
    mode: () => 'manual',
    onError: (e) => {
      throw e;
    },
  });
}
