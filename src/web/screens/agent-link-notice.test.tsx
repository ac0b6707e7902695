import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JourneyInput } from '../../../machines/journey.types';
import { BOT_TOKEN, QUOTES_LEAD_UUID, QUOTES_SESSION_UUID, SAMPLE_DATA } from '../../../machines/quotes/quotes.model';
import { renderApp } from '../../../tests/support/render-app';
import { activateLanguage } from '../i18n/locale';
import * as botCheck from '../services/bot-check.service';
import { ApiError } from '../services/http-client';
import * as leadService from '../services/lead.service';
import * as quoteService from '../services/quote.service';

/**
 * Issue 38, RULINGS 14: a link whose agent is unknown (agent_id=12) opened at a page after travel
 * details. The agent is told, in the page, that the link's agent is unknown; the page then works
 * as a customer's (no shares in that agent's name, Buy now sent without it), so a customer who
 * opens the link can still buy. A known agent sees no notice. The server is a stub at the service edge.
 */

vi.mock('../services/quote.service', () => ({ fetchQuotes: vi.fn(), proceedReview: vi.fn(), sendEmailByPage: vi.fn() }));
vi.mock('../services/bot-check.service', () => ({ getBotCheckToken: vi.fn(), preloadBotCheck: vi.fn() }));
vi.mock('../services/lead.service', async (original) => ({ ...(await original<typeof leadService>()), checkAgent: vi.fn() }));

const quotes = vi.mocked(quoteService);
const bot = vi.mocked(botCheck);
const lead = vi.mocked(leadService);

const unknownAgent = () => new ApiError('invalid', '/miscellaneous/travel/wiz/agent', 422, { status: 422, message: 'refused', data: { errors: { agent_id: 'agent_unknown' } } });

beforeAll(async () => {
  await activateLanguage('en');
});
beforeEach(() => {
  vi.resetAllMocks();
  quotes.fetchQuotes.mockResolvedValue(SAMPLE_DATA);
  quotes.proceedReview.mockResolvedValue({} as Awaited<ReturnType<typeof quoteService.proceedReview>>);
  bot.getBotCheckToken.mockResolvedValue(BOT_TOKEN);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

function open(agentId: string, journey: Partial<JourneyInput> = {}) {
  const { actor } = renderApp(`/compare-quotes?uuid=${QUOTES_LEAD_UUID}&agent_id=${agentId}`, {
    path: '/compare-quotes',
    uuid: QUOTES_LEAD_UUID,
    sessionId: QUOTES_SESSION_UUID,
    agentId,
    ...journey,
  });
  return { step: () => actor.getSnapshot().value };
}

const cardsShown = () => screen.findAllByTestId('quote-card', {});

describe('an agent link whose agent is unknown (RULINGS 14)', () => {
  it('says so above the page, and the page works as a customer’s: no share buttons, Buy now without the agent', async () => {
    lead.checkAgent.mockRejectedValue(unknownAgent());
    const { step } = open('12');
    const notice = await screen.findByTestId('agent-link-unknown');
    expect(notice.getAttribute('role')).toBe('alert');
    expect(notice.textContent).toContain('Agent link not recognised');
    expect(notice.textContent).toContain('The agent number in this link, 12, is not known or not active. Please check the link with your broker.');
    expect(lead.checkAgent).toHaveBeenCalledWith(12, 'en');
    await cardsShown();
    await waitFor(() => expect(screen.queryByTestId('agent-share')).toBeNull());

    const [first] = await cardsShown();
    act(() => fireEvent.click(within(first!).getByTestId('buy-now')));
    await waitFor(() => expect(quotes.proceedReview).toHaveBeenCalled());
    // As a customer's: agent 0, never the unknown 12 (which the server would refuse, RULINGS 14).
    expect(quotes.proceedReview.mock.calls[0]![0]).toMatchObject({ uuid: QUOTES_LEAD_UUID, agent_id: 0 });
    await waitFor(() => expect(step()).toBe('reviewDetails'));
  });

  it('a malformed id is unknown without asking the server', async () => {
    open('12abc');
    expect(await screen.findByTestId('agent-link-unknown')).toBeTruthy();
    expect(lead.checkAgent).not.toHaveBeenCalled();
  });

  it('a known agent sees no notice and keeps the share buttons', async () => {
    lead.checkAgent.mockResolvedValue({ id: 101, name: 'Demo Agent' } as Awaited<ReturnType<typeof leadService.checkAgent>>);
    open('101');
    await cardsShown();
    await waitFor(() => expect(lead.checkAgent).toHaveBeenCalledWith(101, 'en'));
    expect(await screen.findByTestId('agent-share')).toBeTruthy();
    expect(screen.queryByTestId('agent-link-unknown')).toBeNull();
  });

  it('agent 0 is a customer: nothing is asked or said', async () => {
    open('0');
    await cardsShown();
    expect(lead.checkAgent).not.toHaveBeenCalled();
    expect(screen.queryByTestId('agent-link-unknown')).toBeNull();
  });
});
