import type { ApprovalRequest } from '../protocol';
import { type Ending, endingWithoutRun, gateError } from './envelopes';

/**
 * A request that was waiting for a person when warden stopped, offered again after a resume:
 * what the session file kept of it. The call goes through the whole gate again.
 */
export type ResumedCall = {
  requestId: string;
  /** When it was first asked: `approvalTimeoutSec` counts from here, not from the resume. */
  createdAt: string;
  /** The arguments' hash then; arguments that hash differently now are not that request. */
  argsHash: string;
  /** The pre-image hash of the file a write replaced then; a different file now is a new diff. */
  preImageHash?: string;
};

/**
 * The checks only a resumed call has, after schema, guards and policy ran as for any call: the
 * arguments must be the ones asked about (a session file that lost a redacted secret, or was
 * changed, is not), and the request must not have expired since it was first asked.
 * Contract: pure; an ending means the call fails closed and nothing is asked.
 */
export function resumeCheck(
  resumed: ResumedCall,
  argsHash: string,
  timeoutMs: number,
  nowMs: number,
): Ending | undefined {
  if (argsHash !== resumed.argsHash)
    return gateError(
      'resume_mismatch: the arguments kept from before the restart are not the ones that were asked about (a secret in them is never saved to disk, or the session file changed); nothing ran. Make the call again if it is still wanted.',
    );
  const created = Date.parse(resumed.createdAt);
  if (!Number.isFinite(created) || created + timeoutMs <= nowMs)
    return endingWithoutRun({
      kind: 'failed',
      code: 'expired',
      reason: `The request was first asked at ${resumed.createdAt}; approvalTimeoutSec (${Math.round(timeoutMs / 1000)} s) counts from then, so it expired before warden came back. Make the call again if it is still wanted.`,
      waitMs: 0,
    });
  return undefined;
}

/**
 * The fields of a request offered again: its original `createdAt`, the expiry counted from it, and
 * the mark the card shows ("from before the restart", with whether the file changed since).
 */
export function resumedRequestFields(
  resumed: ResumedCall,
  fileHash: string | undefined,
  timeoutMs: number,
): Pick<ApprovalRequest, 'createdAt' | 'expiresAt' | 'resumedFrom'> {
  const created = Date.parse(resumed.createdAt);
  const changed = resumed.preImageHash !== undefined && resumed.preImageHash !== fileHash;
  return {
    createdAt: resumed.createdAt,
    ...(Number.isFinite(timeoutMs) ? { expiresAt: new Date(created + timeoutMs).toISOString() } : {}),
    resumedFrom: { requestId: resumed.requestId, ...(changed ? { fileChanged: true as const } : {}) },
  };
}
