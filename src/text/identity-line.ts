import type { DecidedBy } from '../protocol';

/**
 * `user@host (tty)`, as a notice or a card says who decided; a registered approver's answer adds the
 * name its key is registered under (`approvers/NAME.pub`): `bob@laptop, key bob`.
 */
export function identityLine(by: DecidedBy): string {
  const who = by.hook ? `hook ${by.hook}` : `${by.user ?? 'unknown'}@${by.host ?? 'unknown'}`;
  const named = by.keyName ? `${who}, key ${by.keyName}` : who;
  return by.tty ? `${named} (${by.tty})` : named;
}
