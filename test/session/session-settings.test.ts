import { describe, expect, it } from 'vitest';
import type { TrustedValues } from '../../src/config/load';
import type { LoadedRule } from '../../src/policy/rules';
import { SessionSettings } from '../../src/session/session-settings';
import { initialCoreState } from '../../src/session/session-state';

const fresh = () => {
  const state = initialCoreState({
    sessionId: 's',
    root: '/p',
    model: { name: 'm', demo: false },
    mode: 'manual',
    sandboxed: false,
  });
  return { state, settings: new SessionSettings(state, { mode: 'manual' }) };
};
const values = (v: Partial<TrustedValues>) => ({ mode: 'manual', ...v }) as TrustedValues;

describe('SessionSettings: the one owner of mode, rules and the sandbox verdict', () => {
  it('a mode change is what the policy judges with and what the state shows', () => {
    const { state, settings } = fresh();
    settings.setMode('auto-edit');
    expect(settings.policy().mode).toBe('auto-edit');
    expect(state.mode).toBe('auto-edit');
  });

  it('rules set once are the policy’s rules', () => {
    const { settings } = fresh();
    const rules = [{ id: 'r', source: 'user' }] as unknown as LoadedRule[];
    settings.setRules(rules);
    expect(settings.policy().rules).toBe(rules);
    expect(settings.rules).toBe(rules);
  });

  it('the sandbox verdict: a placeholder until it answers; "checking" until then when put off', () => {
    const { state, settings } = fresh();
    expect(settings.sandboxed).toBe(false);
    settings.checkingSandbox();
    expect(state.sandboxChecking).toBe(true);
    settings.setSandbox({ kind: 'bubblewrap' } as never);
    expect(settings.sandboxed).toBe(true);
    expect(state.sandboxed).toBe(true);
    expect(state.sandboxChecking).toBeUndefined();
  });

  it('trust switches the mode only when the person has not changed it since', () => {
    const { settings } = fresh();
    expect(settings.applyTrust(values({ mode: 'auto-edit' }), values({ mode: 'manual' }))).toBe('auto-edit');
    expect(settings.mode).toBe('auto-edit');
    settings.setMode('plan');
    expect(settings.applyTrust(values({ mode: 'manual' }), values({ mode: 'auto-edit' }))).toBeUndefined();
    expect(settings.mode).toBe('plan');
  });

  it('a changed search URL reaches the listeners; one that throws does not stop the next', () => {
    const { settings } = fresh();
    const heard: (string | undefined)[] = [];
    settings.onChange(() => {
      throw new Error('boom');
    });
    settings.onChange(({ url }) => heard.push(url));
    const search = { provider: 'searxng', url: 'http://127.0.0.1:1' } as TrustedValues['webSearch'];
    settings.applyTrust(values({ webSearch: search }), values({}));
    settings.applyTrust(values({}), values({ webSearch: search }));
    settings.applyTrust(values({}), values({}));
    expect(heard).toEqual(['http://127.0.0.1:1', undefined]);
  });
});
