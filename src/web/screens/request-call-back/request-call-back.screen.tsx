import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Center, Loader, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useStepActor } from '../../journey/step-actor';
import {
  selectCallBackFailure,
  selectCallBackOutcome,
  selectCallBackPhoneCodes,
  selectCallBackSending,
  selectCallBackServerErrors,
  selectCallBackValues,
  selectCallBackView,
} from '../../../../machines/call-back/call-back.selectors';
import type { CallBackFailure, CallBackInput, CallBackValues } from '../../../../machines/call-back/call-back.types';
import { selectCallBackReason, selectLead } from '../../../../machines/journey.selectors';
import { TRAVEL_DETAILS_MESSAGES } from '../../i18n/validation-messages';
import { agentIsUnknown } from '../../journey/agent-link';
import { JourneyActorContext } from '../../journey/journey-context';
import { useApp } from '../../shell/app-context';
import { ErrorView } from '../../shell/error-view';
import { PageHeading } from '../page-heading';
import { CallBackSteps } from './call-back-steps';
import { CallBackForm } from './call-back-form';
import { callBackLogic } from './call-back.actors';

/** The step's input, read once when the page opens: why it opened, the lead and the agent. */
function useStepInput(): CallBackInput {
  const { lang } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const [input] = useState<CallBackInput>(() => {
    const snapshot = journey.getSnapshot();
    const lead = selectLead(snapshot);
    return {
      lang,
      reason: selectCallBackReason(snapshot),
      leadUuid: lead.uuid,
      // An agent found unknown is named by the notice above the page, which then works as a customer's (issue 38).
      agentId: lead.agentId === null || agentIsUnknown(lead.agentId) ? null : Number(lead.agentId),
    };
  });
  return input;
}

function FailureAlert({ failure }: { failure: Exclude<CallBackFailure, 'load_failed'> }) {
  const { t, i18n } = useLingui();
  const text: Record<typeof failure, string> = {
    rate_limited: t`You have sent several requests in a short time. Please wait a few minutes and try again.`,
    agent_unknown: i18n._(TRAVEL_DETAILS_MESSAGES.agent_unknown),
    send_failed: t`We could not send your request. Please check your connection and try again.`,
  };
  return (
    <Alert role="alert" color="red" variant="light" mb="lg" icon={<IconAlertTriangle aria-hidden="true" />} data-testid="call-back-failure">
      {text[failure]}
    </Alert>
  );
}

/** /request-call-back: step one of the short call-back wizard (RULINGS 13): who to call. */
export function RequestCallBackScreen() {
  const { t } = useLingui();
  const journey = JourneyActorContext.useActorRef();
  const input = useStepInput();
  const step = useStepActor(callBackLogic, input);

  const view = useSelector(step, selectCallBackView);
  const values = useSelector(step, selectCallBackValues);
  const phoneCodes = useSelector(step, selectCallBackPhoneCodes);
  const serverErrors = useSelector(step, selectCallBackServerErrors);
  const sending = useSelector(step, selectCallBackSending);
  const failure = useSelector(step, selectCallBackFailure);
  const outcome = useSelector(step, selectCallBackOutcome);

  useEffect(() => {
    if (outcome) journey.send({ type: 'callBack.submitted' });
  }, [outcome, journey]);

  const submit = useCallback((submitted: CallBackValues) => step.send({ type: 'callBack.submit', values: submitted }), [step]);

  let body;
  if (view === 'failed') {
    body = <ErrorView headingOrder={2} />;
  } else if (view === 'loading') {
    body = (
      <Center py={64} role="status" data-testid="call-back-loading">
        <Loader aria-hidden="true" />
        <VisuallyHidden>{t`Loading your details…`}</VisuallyHidden>
      </Center>
    );
  } else {
    body = (
      <>
        {failure && failure !== 'load_failed' && <FailureAlert failure={failure} />}
        <CallBackForm initialValues={values} phoneCodes={phoneCodes} serverErrors={serverErrors} sending={sending || view === 'done'} onSubmit={submit} />
      </>
    );
  }

  return (
    <Box maw={640}>
      <CallBackSteps step={1} />
      <PageHeading
        testId="screen-request-call-back"
        title={t`Request a call back`}
        intro={t`Leave your name and number and our team will call you to find the right cover.`}
      />
      {body}
    </Box>
  );
}
