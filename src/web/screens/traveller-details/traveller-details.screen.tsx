import { Suspense, lazy, startTransition, useCallback, useEffect, useState } from 'react';
import { Center, Grid, Loader, Paper, Stack, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconBolt, IconLock, IconScale } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useStepActor } from '../../journey/step-actor';
import { useLocation } from '../../journey/app-location';
import { todayIso } from '../../../contract/dates';
import type { LeadStage } from '../../../../machines/journey.types';
import { selectLead } from '../../../../machines/journey.selectors';
import {
  selectAgentError,
  selectOutcome,
  selectRecentLeads,
  selectReference,
  selectSaveFailed,
  selectServerErrors,
  selectSubmitting,
  selectValues,
  selectView,
} from '../../../../machines/travel-details/travel-details.selectors';
import type { TravelDetailsInput, TravelDetailsValues } from '../../../../machines/travel-details/travel-details.types';
import { TRAVEL_DETAILS_MESSAGES } from '../../i18n/validation-messages';
import { JourneyActorContext } from '../../journey/journey-context';
import { readEntryQuery } from '../../journey/startup-query';
import { useApp } from '../../shell/app-context';
import { ErrorView } from '../../shell/error-view';
import { localStore } from '../../storage/local-store';
import { lazyPart } from '../../components/lazy-part';
import { PageHeading } from '../page-heading';
import { AgentLinkAlert } from '../agent-link-alert';
import type { TakenContact } from './contact-taken-help';
import { travelDetailsLogic } from './travel-details.actors';
import { captureTypedContact } from '../../journey/typed-contact';
import { clearBuyAgain, pendingBuyAgain } from '../../journey/buy-again';
import { markLeadOpen } from '../../journey/open-leads';
import { policyTokenOfPath } from '../../../../machines/journey.routes';

/** The existing-leads chooser is a lazy chunk: most visits never show it, and the first page stays light. */
const RecentLeadsDialog = lazy(() => import('./recent-leads-dialog').then((dialog) => ({ default: dialog.RecentLeadsDialog })));
/** The way forward for a known e-mail or phone, a lazy chunk for the same reason. */
const ContactTakenHelp = lazy(() => import('./contact-taken-help').then((help) => ({ default: help.ContactTakenHelp })));

/** Which typed contact detail the server knows with other details (409 email_taken, phone_taken or both), or null. */
function takenContact(serverErrors: Partial<Record<string, string>>): TakenContact | null {
  const email = serverErrors.email === 'email_taken';
  const phone = serverErrors.phone_number === 'phone_taken';
  if (email && phone) return 'both';
  if (email) return 'email';
  return phone ? 'phone' : null;
}

/**
 * The form, with its selects, calendar field and number inputs, is a lazy chunk fetched as the
 * screen opens, beside the reference data it waits for anyway: the first load carries the
 * shell and the screen, not the drop-down and positioning code (issue 19).
 */
const TravelDetailsFormPart = lazyPart(() => import('./travel-details-form').then((form) => form.TravelDetailsForm));
export const preloadTravelDetailsForm = TravelDetailsFormPart.preload;
/** The calendar behind the date fields, a chunk of its own, fetched when the browser is idle. */
export const preloadDatePicker = () => import('./form/date-field').then((field) => field.preloadDatePicker());

/** The step's input, read once when the page opens: the journey's lead, storage and the query. */
function useStepInput(): TravelDetailsInput {
  const { lang } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const { search } = useLocation();
  const [input] = useState<TravelDetailsInput>(() => {
    const lead = selectLead(journey.getSnapshot());
    const entry = readEntryQuery(search);
    return {
      lang,
      deviceUuid: localStore.get('device_uuid'),
      leadUuid: lead.uuid,
      sessionId: lead.sessionId,
      // "abc" becomes NaN, which the machine reports as an unknown agent (RULINGS 14).
      agentId: lead.agentId === null ? null : Number(lead.agentId),
      prefill: entry.prefill,
      utm: entry.utm,
      buyAgain: pendingBuyAgain(),
    };
  });
  return input;
}

/**
 * /traveller-details: the trip, the travellers and the contact details, or a lead entered
 * earlier on this device. The travel details machine runs the step; when it ends, the journey
 * is told (details.submitted or lead.resumed) and moves on.
 */
export function TravellerDetailsScreen() {
  const { t, i18n } = useLingui();
  const { lang, showSystemError } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const input = useStepInput();
  const [today] = useState(todayIso);
  const step = useStepActor(travelDetailsLogic, input);
  useState(preloadTravelDetailsForm);

  const view = useSelector(step, selectView);
  const values = useSelector(step, selectValues);
  const reference = useSelector(step, selectReference);
  const recentLeads = useSelector(step, selectRecentLeads);
  const serverErrors = useSelector(step, selectServerErrors);
  const submitting = useSelector(step, selectSubmitting);
  const saveFailed = useSelector(step, selectSaveFailed);
  const agentError = useSelector(step, selectAgentError);
  const outcome = useSelector(step, selectOutcome);
  const taken = takenContact(serverErrors);

  useEffect(() => {
    if (saveFailed) showSystemError();
  }, [saveFailed, showSystemError]);

  useEffect(() => {
    if (outcome) clearBuyAgain();
    // A lead saved or picked here is not paid: its pages need not ask (RULINGS 28, journey-outlet.tsx).
    if (outcome?.type === 'submitted' || outcome?.type === 'resumed' || outcome?.type === 'noQuote') markLeadOpen(outcome.uuid);
    if (outcome?.type === 'submitted') journey.send({ type: 'details.submitted', uuid: outcome.uuid, sessionId: outcome.sessionId });
    if (outcome?.type === 'resumed') journey.send({ type: 'lead.resumed', uuid: outcome.uuid, sessionId: outcome.sessionId, stage: outcome.stage });
    if (outcome?.type === 'noQuote') journey.send({ type: 'lead.noQuote', uuid: outcome.uuid, sessionId: outcome.sessionId });
  }, [outcome, journey]);

  const submit = useCallback((submitted: TravelDetailsValues) => step.send({ type: 'details.submit', values: submitted }), [step]);
  const pick = useCallback((uuid: string, stage: LeadStage) => step.send({ type: 'leads.pick', uuid, stage }), [step]);
  const enterNew = useCallback(() => step.send({ type: 'leads.new' }), [step]);
  const openPolicy = useCallback(
    (policyPage: string) => {
      const policyToken = policyTokenOfPath(policyPage);
      if (policyToken) journey.send({ type: 'policy.opened', policyToken });
    },
    [journey],
  );

  // The form mounts as a transition: React renders it in short slices, so the customer's first
  // tap is never held up behind one long task (issue 19).
  const [formShown, setFormShown] = useState(false);
  useEffect(() => {
    if (reference && !formShown) startTransition(() => setFormShown(true));
  }, [reference, formShown]);

  // The placeholder is a screen tall, as the form is at least: what sits below it (the reasons
  // to buy, the footer) is below the fold when the form arrives, so nothing visible shifts.
  const loading = (
    <Center mih="100dvh" style={{ alignItems: 'flex-start' }} pt={64} role="status" data-testid="travel-details-loading">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{t`Loading your details…`}</VisuallyHidden>
    </Center>
  );
  let body;
  if (view === 'failed') {
    body = <ErrorView headingOrder={2} />;
  } else if (view === 'loading' || !reference || !formShown) {
    body = loading;
  } else {
    body = (
      <Suspense fallback={loading}>
        <TravelDetailsFormPart.Component
          initialValues={values}
          reference={reference}
          today={today}
          serverErrors={serverErrors}
          submitting={submitting || view === 'done'}
          onSubmit={submit}
        />
      </Suspense>
    );
  }

  return (
    <>
      <PageHeading
        testId="screen-traveller-details"
        title={t`Travel details`}
        intro={t`Where are you going, when, and who is travelling? We will find the plans that fit.`}
      />
      {agentError && (
        <AgentLinkAlert testId="agent-error">{i18n._(TRAVEL_DETAILS_MESSAGES[agentError])}</AgentLinkAlert>
      )}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8 }}>
          {body}
          {taken && (
            <Suspense fallback={null}>
              <ContactTakenHelp
                taken={taken}
                onCallBack={() => {
                  // The call-back form starts from what was typed here, as from the header's button.
                  captureTypedContact();
                  journey.send({ type: 'callBack.requested' });
                }}
              />
            </Suspense>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Promises />
        </Grid.Col>
      </Grid>
      {view === 'chooser' && (
        <Suspense fallback={null}>
          <RecentLeadsDialog opened leads={recentLeads} lang={lang} onPick={pick} onOpenPolicy={openPolicy} onNew={enterNew} />
        </Suspense>
      )}
    </>
  );
}

/** Why compare here: beside the form on wide screens, below it on phones. */
function Promises() {
  const { t } = useLingui();
  const promises = [
    { icon: IconScale, title: t`Compare insurers side by side`, text: t`See every plan you are eligible for, with its medical limit and benefits.` },
    { icon: IconBolt, title: t`Covered in under a minute`, text: t`Tell us about your trip once; your policy arrives by e-mail.` },
    { icon: IconLock, title: t`Pay securely`, text: t`Card payments go through a secure hosted payments page.` },
  ];
  return (
    <Stack gap="md" component="aside" aria-label={t`Why Safar`}>
      {promises.map((promise) => (
        <Paper key={promise.title} withBorder p="lg" radius="lg">
          <ThemeIcon size={40} radius="md" variant="light" mb="sm">
            <promise.icon size={22} aria-hidden="true" />
          </ThemeIcon>
          <Text fw={700} mb={4}>
            {promise.title}
          </Text>
          <Text fz="sm" c="dimmed">
            {promise.text}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}
