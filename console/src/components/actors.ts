/**
 * Who did something, as a person reads it: the audit and labels name an operator by id
 * (`operator:<id>`, which outlives the operator's email), so the pages show the email that
 * GET /operators gives for it; API keys and the command line stay as they are recorded.
 */
import { useEffect, useState } from 'react';
import { api } from '../api';

/** One read per page load: the operators change rarely, and every page shows the same names. */
let operators: Promise<Map<string, string>> | undefined;

function operatorEmails(): Promise<Map<string, string>> {
  operators ??= api
    .GET('/operators')
    .then(({ data }) => new Map((data?.operators ?? []).map((o) => [`operator:${o.id}`, o.email])))
    .catch(() => new Map<string, string>());
  return operators;
}

/** A function from a recorded actor to what the page shows: an operator's email, else the actor as recorded. */
export function useActorNames(): (actor: string) => string {
  const [emails, setEmails] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    let live = true;
    operatorEmails().then((found) => live && setEmails(found));
    return () => {
      live = false;
    };
  }, []);
  return (actor) => emails.get(actor) ?? (actor === 'cli' ? 'trustgate command' : actor);
}
