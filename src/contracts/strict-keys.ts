import * as v from 'valibot';

/**
 * `v.strictObject` whose unknown-key error lists the keys it allows (valibot's own reads
 * "Invalid key: Expected never but received …", which does not say what to write instead).
 * Every other issue keeps valibot's message.
 */
export function strictKeys<const Entries extends v.ObjectEntries>(entries: Entries) {
  const allowed = Object.keys(entries).join(', ');
  return v.strictObject(entries, (issue) =>
    issue.expected === 'never' ? `unknown key ${issue.received}; the allowed keys are ${allowed}` : issue.message,
  );
}
