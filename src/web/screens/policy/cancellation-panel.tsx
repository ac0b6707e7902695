import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Radio, Stack, Text, Textarea } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { PolicySection } from './policy-section';
import { CANCELLATION_NOTE_MAX, CANCELLATION_REASONS, type CancellationReason, type PolicyPage } from '../../../contract/policy-page.endpoints';
import { formatDate } from '../../i18n/format';
import { ApiError } from '../../services/http-client';
import { requestCancellation } from '../../services/policy-page.service';
import { useAnnounce } from '../../shell/announcer';
import { useApp } from '../../shell/app-context';

/**
 * "Request a cancellation" on the policy page (issue 37 item 2): while the policy has not
 * started, the customer names a reason (visa refused, trip cancelled, other) and may add a note;
 * the broker works the request in the console. Once asked, the page shows the request's status.
 */
export function CancellationPanel({ policy, token, onChanged }: { policy: PolicyPage; token: string; onChanged: (policy: PolicyPage) => void }) {
  const { t } = useLingui();
  const { lang } = useApp();
  const announce = useAnnounce();
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState<CancellationReason | null>(null);
  const [note, setNote] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const statusRef = useRef<HTMLDivElement>(null);
  const request = policy.cancellation_request;
  // The form gives way to the request's status: the focus goes there, not to the page's start.
  useEffect(() => {
    if (sent && request) statusRef.current?.focus();
  }, [sent, request]);

  const labels: Record<CancellationReason, string> = {
    visa_refused: t`My visa was refused`,
    trip_cancelled: t`My trip is cancelled`,
    other: t`Another reason`,
  };

  if (request) {
    const statusText = {
      open: t`We received your request on ${formatDate(new Date(request.created_at), lang)}. Our team will contact you about the refund.`,
      done: t`Your policy was cancelled. The refund goes back to the card you paid with.`,
      declined: t`Our team could not cancel this policy. Call or message us if you would like to know why.`,
    }[request.status];
    return (
      <PolicySection title={t`Cancellation request`} gap="xs" testId="policy-cancellation">
        <Alert
          ref={statusRef}
          tabIndex={-1}
          color={request.status === 'declined' ? 'gray' : 'blue'}
          variant="light"
          icon={<IconClockHour4 aria-hidden="true" />}
          data-testid="policy-cancellation-status"
          data-status={request.status}
        >
          <Text fw={600}>{labels[request.reason]}</Text>
          {request.note && <Text fz="sm">{request.note}</Text>}
          <Text fz="sm" mt={4}>
            {statusText}
          </Text>
        </Alert>
      </PolicySection>
    );
  }
  if (!policy.can_request_cancellation) return null;

  const submit = async () => {
    if (!reason) {
      setError(t`Choose a reason.`);
      return;
    }
    setSending(true);
    setError(null);
    try {
      // One line: the API takes no control characters, so the textarea's line breaks go as spaces.
      const updated = await requestCancellation(token, reason, note.replace(/\s+/g, ' ').trim(), lang);
      announce(t`Your cancellation request was sent.`);
      setSent(true);
      onChanged(updated);
    } catch (failure) {
      const message =
        failure instanceof ApiError && failure.status === 409
          ? t`This policy can no longer be cancelled online. Please contact us.`
          : failure instanceof ApiError && failure.status === 422
            ? t`Please check the note: it cannot be sent as it is.`
            : t`We could not send your request just now. Please try again in a moment.`;
      setError(message);
      announce(message, { urgent: true });
    } finally {
      setSending(false);
    }
  };

  return (
    <PolicySection title={t`Need to cancel?`} testId="policy-cancellation">
      <Text fz="sm">{t`Until the policy starts, you can ask us to cancel it and refund the premium, less the insurer's cancellation fee.`}</Text>
      {!opened ? (
        <Button variant="default" style={{ alignSelf: 'flex-start' }} onClick={() => setOpened(true)} data-testid="policy-cancel-open">
          {t`Request a cancellation`}
        </Button>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
          noValidate
        >
          <Stack gap="sm">
            <Radio.Group
              label={t`Why do you want to cancel?`}
              value={reason}
              onChange={(value) => {
                setReason(value as CancellationReason);
                setError(null);
              }}
              error={error && !reason ? error : undefined}
              withAsterisk
            >
              <Stack gap="xs" mt="xs">
                {CANCELLATION_REASONS.map((option) => (
                  <Radio key={option} value={option} label={labels[option]} data-testid={`cancel-reason-${option}`} />
                ))}
              </Stack>
            </Radio.Group>
            <Textarea
              label={t`Note (optional)`}
              description={t`For example, the date of the visa decision.`}
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
              maxLength={CANCELLATION_NOTE_MAX}
              rows={3}
              data-testid="cancel-note"
            />
            {error && reason && (
              <Text c="red.8" fz="sm" role="alert">
                {error}
              </Text>
            )}
            <Button type="submit" loading={sending} style={{ alignSelf: 'flex-start' }} data-testid="policy-cancel-submit">
              {t`Send the request`}
            </Button>
          </Stack>
        </form>
      )}
    </PolicySection>
  );
}
