import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import { createActor, fromPromise, waitFor as waitForActor } from 'xstate';
import { reviewMachine } from '../../machines/review/review.machine';
import { reviewData, reviewInput, savedResult } from '../../machines/review/review.model';
import { selectViewState } from '../../machines/review/review.selectors';
import type { ReviewData, ReviewInput, SaveTravellerInput, SaveTravellerResult } from '../../machines/review/review.types';
import { AnnouncerProvider } from '../../src/web/shell/announcer';
import { TravellerStep } from '../../src/web/screens/review-details/review-details.screen';

export type SaveTraveller = (input: SaveTravellerInput) => Promise<SaveTravellerResult>;

/**
 * The review's traveller step rendered over the real review machine, once the machine is ready;
 * only its calls to the server are stand-ins (a provider-3 family of three by default, each save
 * accepted). Returns the running machine.
 */
export async function mountTravellerStep(data: ReviewData = reviewData(), input: Partial<ReviewInput> = {}, save: SaveTraveller = async () => savedResult(0)) {
  const actor = createActor(
    reviewMachine.provide({
      actors: {
        loadReview: fromPromise(async () => data),
        saveTraveller: fromPromise(({ input: call }) => save(call)),
        sendEmail: fromPromise(async (): Promise<unknown> => ({})),
      },
    }),
    { input: reviewInput(input) },
  ).start();
  await waitForActor(actor, (snapshot) => selectViewState(snapshot) === 'ready');
  render(
    <I18nProvider i18n={i18n}>
      <MantineProvider env="test">
        <AnnouncerProvider>
          <TravellerStep step={actor} />
        </AnnouncerProvider>
      </MantineProvider>
    </I18nProvider>,
  );
  return actor;
}
