import { Fragment, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { Text } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../contract/endpoint';
import { isAgentId, isAgentUnknown } from '../../../machines/travel-details/travel-details.payload';
import { agentIsUnknown, markAgentUnknown, onAgentUnknown } from '../journey/agent-link';
import { checkAgent } from '../services/lead.service';
import { AgentLinkAlert } from './agent-link-alert';

/** An id that cannot name an agent (not a positive whole number): unknown without asking; the steps already read it as a customer's (step-lead.ts). */
const malformed = (agentId: string) => !isAgentId(Number(agentId));

/** One check per agent id and page load, whichever page asks first. */
const checks = new Map<string, Promise<void>>();

/**
 * Asks the server whether the link's agent is active (RULINGS 14), once; a refusal marks it
 * unknown. A failed call says nothing about the agent: the pages go on in agent mode, and the
 * server checks the agent again on every call that carries it.
 */
function checkOnce(agentId: string, lang: Language): Promise<void> {
  let check = checks.get(agentId);
  if (!check) {
    // Through a resolved promise, so a check that throws at once is handled as a failed call.
    check = malformed(agentId)
      ? Promise.resolve()
      : Promise.resolve()
          .then(() => checkAgent(Number(agentId), lang))
          .then(
            () => undefined,
            (error: unknown) => {
              if (isAgentUnknown(error)) markAgentUnknown(agentId);
            },
          );
    checks.set(agentId, check);
  }
  return check;
}

/**
 * Around every journey page but travel details (which checks and says it in its own form), for an
 * agent link: when the link's agent is unknown, tells the agent so above the page, in the page's
 * language (issue 38; before, the page looked like an agent's, and its shares and Buy now were
 * refused without saying why), and opens the page again as a customer's (step-lead.ts), its step
 * started afresh, so a customer who opens the link can still buy. A lazy chunk: only agent links
 * load it, and the first load carries none of it.
 */
export function AgentLinkGate({ agentId, lang, children }: { agentId: string; lang: Language; children: ReactNode }) {
  const readUnknown = () => malformed(agentId) || agentIsUnknown(agentId);
  // The same on the server: the pre-rendered shell (prerender/) renders the outlet too.
  const unknown = useSyncExternalStore(onAgentUnknown, readUnknown, readUnknown);
  useEffect(() => {
    void checkOnce(agentId, lang);
  }, [agentId, lang]);
  return (
    <>
      {unknown && <AgentLinkNotice agentId={agentId} />}
      <Fragment key={unknown ? 'customer' : 'agent'}>{children}</Fragment>
    </>
  );
}

function AgentLinkNotice({ agentId }: { agentId: string }) {
  const { t } = useLingui();
  return (
    <AgentLinkAlert testId="agent-link-unknown">
      <Text fz="sm">{t`The agent number in this link, ${agentId}, is not known or not active. Please check the link with your broker.`}</Text>
      <Text fz="sm">{t`Meanwhile these pages work as they do for a customer, and no sale is credited to an agent.`}</Text>
    </AgentLinkAlert>
  );
}
