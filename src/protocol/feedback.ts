/**
 * Feedback that becomes rules, only with consent: what warden offers to remember
 * after a person approved or edited the same shape of call repeatedly. Nothing is written until the
 * person accepts the offer, and what is written is exactly the text shown here.
 */

/** A policy rule offered after repeated approvals: `ruleText` is the exact JSON appended to `files[target]`. */
export type RuleSuggestion = {
  kind: 'rule';
  id: string;
  /** "execute_command `npm test`", "write_file under docs/**". */
  label: string;
  /** How many times the person approved this shape in this session. */
  count: number;
  /** The exact rule (JSON) that would be appended to the chosen policy file. */
  ruleText: string;
  /** Where it would go: the project's `.warden/policy.json` or the user's `$WARDEN_HOME/policy.json`. */
  files: { project: string; user: string };
};

/** A preference line offered after the person edited the same field the same way repeatedly. */
export type PreferenceSuggestion = {
  kind: 'preference';
  id: string;
  /** "path: /tmp/ → src/". */
  label: string;
  count: number;
  /** The exact line appended to `file` (AGENTS.md at the project root). */
  line: string;
  file: string;
};

export type Suggestion = RuleSuggestion | PreferenceSuggestion;

/** Where an accepted rule suggestion is written; a preference always goes to the project's AGENTS.md. */
export type SuggestionTarget = 'project' | 'user';
