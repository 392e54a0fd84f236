/**
 * Who and where, on every audit line: the OS user warden runs as (the person at the TUI; a decision
 * from elsewhere names its own in `decidedBy`), the host, the project (root and git remote, redacted),
 * warden's version and the model. Serialised once per identity and spliced into each line, so the
 * fields cost an append no redaction of their own.
 */
import { redact } from '../redact';

export type AuditIdentity = {
  user: string;
  host: string;
  project?: { root: string; remote?: string };
  wardenVersion: string;
  model?: string;
};

/** The identity as a line holds it: redacted, and as text (`,"user":…,"host":…`) to follow a record's own fields. */
export type IdentityFields = { value: Partial<AuditIdentity>; text: string };

const NONE: IdentityFields = { value: {}, text: '' };

/** The identity's fields, redacted. */
export function identityFields(of: AuditIdentity): IdentityFields {
  const value = redact(of) as AuditIdentity;
  const json = JSON.stringify(value);
  return { value, text: json.length > 2 ? `,${json.slice(1, -1)}` : '' };
}

/**
 * The fields of the identity `get` gives now, redacted and serialised again only when it gives
 * another object (the model changed). No `get`: no fields.
 */
export function identityFieldsOf(get: (() => AuditIdentity) | undefined): () => IdentityFields {
  let last: { of: AuditIdentity; fields: IdentityFields } | undefined;
  return () => {
    const of = get?.();
    if (!of) return NONE;
    if (last?.of !== of) last = { of, fields: identityFields(of) };
    return last.fields;
  };
}
