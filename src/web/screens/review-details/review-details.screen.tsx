import { useCallback, useEffect, useRef, useState } from 'react';
import { Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { todayIso } from '../../../contract/dates';
import {
  selectCurrentTraveller,
  selectCustomer,
  selectDobDialog,
  selectDrafts,
  selectEmailSent,
  selectFormOpen,
  selectInvoice,
  selectLead,
  selectOptions,
  selectOtherPassports,
  selectPlan,
  selectSaving,
  selectServerErrors,
  selectSharing,
  selectTravellerCount,
  selectViewState,
  selectWhatsappTemplate,
} from '../../../../machines/review/review.selectors';
import { selectLeadNotFound } from '../../../../machines/service-failure';
import { StepShareButtons, type ShareView } from '../../components/share-buttons';
import { PlanSummary } from '../invoice-shared/plan-summary';
import { LoadFailureView } from '../load-failure-view';
import { useShownViewState } from '../use-shown-view-state';
import { PageHeading } from '../page-heading';
import { registerReloadDraft } from '../../storage/reload-draft';
import type { ReviewTravellerValues } from '../../../contract/traveller-review.rules';
import { DobErrorDialog } from './dob-error-dialog';
import type { reviewLogic } from './review.actors';
import { reviewReloadDraft, useDraftKeptOnReload } from './review-reload-draft';
import { TravellerForm } from './traveller-form';
import { useTravellerSavedAnnouncements } from './traveller-saved-announcement';
import { useReviewStep } from './use-review-step';

type ReviewActor = ActorRefFrom<typeof reviewLogic>;

const sameList = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/** /review-details: the chosen plan read back from the server, then each traveller in turn (spec §2). */
export function ReviewDetailsScreen() {
  const { t } = useLingui();
  const { step, lang, isAgent } = useReviewStep();
  const viewState = useShownViewState(useSelector(step, selectViewState));
  const invoice = useSelector(step, selectInvoice);
  const lead = useSelector(step, selectLead);
  const leadNotFound = useSelector(step, selectLeadNotFound);

  let body;
  if (viewState === 'failed') body = <LoadFailureView leadNotFound={leadNotFound} />;
  else if (viewState !== 'ready' || !invoice || !lead) {
    body = (
      <Center py={64} role="status" data-testid="review-loading">
        <Stack align="center" gap="sm">
          <Loader aria-hidden="true" />
          <Text c="dimmed">{t`Please wait while we load your plan…`}</Text>
        </Stack>
      </Center>
    );
  } else {
    body = (
      <>
        <PlanSummary invoice={invoice} lead={lead} lang={lang} sections={[1]} actions={isAgent ? <StepShareButtons step={step} select={shareOf} /> : undefined} />
        <TravellerStep step={step} />
      </>
    );
  }
  return (
    <>
      <PageHeading testId="screen-review-details" title={t`Review details`} intro={t`Check each traveller's details exactly as they appear on the passport.`} />
      {body}
    </>
  );
}

/** The open traveller's form, the short "saved" pause between two travellers, and the DOB dialog. */
export function TravellerStep({ step }: { step: ReviewActor }) {
  const { t, i18n } = useLingui();
  const traveller = useSelector(step, selectCurrentTraveller);
  const count = useSelector(step, selectTravellerCount);
  const formOpen = useSelector(step, selectFormOpen);
  const saving = useSelector(step, selectSaving);
  const serverErrors = useSelector(step, selectServerErrors);
  const options = useSelector(step, selectOptions);
  const plan = useSelector(step, selectPlan);
  const otherPassports = useSelector(step, selectOtherPassports, sameList);
  const dob = useSelector(step, selectDobDialog);
  const [today] = useState(todayIso);
  useTravellerSavedAnnouncements(step);
  const headingRef = useRef<HTMLDivElement>(null);
  const opened = useRef(false);
  // The open form's values as typed: the language switch keeps them with the other drafts (issue 17).
  const typing = useRef<{ id: number; values: ReviewTravellerValues } | null>(null);
  const travellerId = traveller?.id;
  const onValuesChange = useCallback((values: ReviewTravellerValues) => {
    if (travellerId !== undefined) typing.current = { id: travellerId, values };
  }, [travellerId]);
  useEffect(
    () => registerReloadDraft(() => reviewReloadDraft(selectDrafts(step.getSnapshot()), selectFormOpen(step.getSnapshot()) ? typing.current : null)),
    [step],
  );
  // And across the customer's own reload (issue 38).
  useDraftKeptOnReload();

  // When the next traveller's form opens, keyboard and screen-reader users land on its title.
  useEffect(() => {
    if (!formOpen || !traveller) return;
    if (opened.current) headingRef.current?.querySelector<HTMLElement>('#traveller-form-title')?.focus();
    opened.current = true;
  }, [formOpen, traveller?.index]); // eslint-disable-line react-hooks/exhaustive-deps

  // The closing form takes its focused Proceed with it: until the next form opens, the focus
  // waits on the "saved" notice rather than falling to <body> (WCAG 2.4.3, issue 21).
  const savedRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!formOpen) savedRef.current?.focus();
  }, [formOpen]);

  if (!traveller || !options || !plan) return null;
  const number = traveller.index + 1;
  return (
    <div ref={headingRef}>
      {formOpen ? (
        <TravellerForm
          key={traveller.index}
          index={traveller.index}
          count={count}
          values={traveller.values}
          rules={traveller.rules}
          plan={plan}
          options={options}
          otherPassports={otherPassports}
          serverErrors={serverErrors}
          today={today}
          englishTyping={i18n.locale === 'en'}
          saving={saving}
          canGoBack={traveller.index > 0}
          onSave={(values) => step.send({ type: 'traveller.save', values })}
          onPrevious={(values) => step.send({ type: 'traveller.previous', values })}
          onValuesChange={onValuesChange}
        />
      ) : (
        // Not a live region: one added with its text is not read, so the announcer says it.
        <Paper ref={savedRef} tabIndex={-1} withBorder radius="md" p="lg" data-testid="traveller-saved">
          <Stack align="center" gap="xs">
            <IconCircleCheck size={32} color="var(--mantine-color-green-7)" aria-hidden="true" />
            <Text fw={600}>{t`Traveller ${number} saved`}</Text>
          </Stack>
        </Paper>
      )}
      <DobErrorDialog
        opened={dob.open}
        message={dob.message ?? ''}
        onUpdate={() => step.send({ type: 'dob.update' })}
        onClose={() => step.send({ type: 'dob.dismiss' })}
      />
    </div>
  );
}

/** Agent mode on this page: WhatsApp or e-mail the review page to the customer. */
const shareOf = (snapshot: SnapshotFrom<ReviewActor>): ShareView => ({
  customer: selectCustomer(snapshot),
  template: selectWhatsappTemplate(snapshot),
  sending: selectSharing(snapshot),
  sent: selectEmailSent(snapshot),
});
