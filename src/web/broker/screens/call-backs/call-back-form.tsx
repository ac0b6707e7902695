import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { CALL_BACK_STATUSES, type CallBackListItem } from '../../../../contract/broker-console';
import { postJson, segment } from '../../services/console-api';
import { ResultAlert } from '../../components/result-alert';
import { useAction } from '../../components/use-action';
import { CALL_BACK_STATUS_LABELS, labelOf } from '../../i18n/console-labels';

/**
 * Works a call-back (POST /call-backs/:id): its status, who has it ('' takes them off) and a
 * note. Only what changed is sent, as callBackChangeSchema asks.
 */
export function CallBackForm({ item, onSaved }: { item: CallBackListItem; onSaved: (status: string) => void }) {
  const { t, i18n } = useLingui();
  const [status, setStatus] = useState(item.status);
  const [assignee, setAssignee] = useState(item.assignee ?? '');
  const [note, setNote] = useState('');
  const { run, busy, result, clear } = useAction();
  const [unchanged, setUnchanged] = useState(false);

  const save = async () => {
    const change: { status?: string; assignee?: string; note?: string } = {};
    if (status !== item.status) change.status = status;
    if (assignee.trim() !== (item.assignee ?? '')) change.assignee = assignee.trim();
    if (note.trim()) change.note = note.trim();
    setUnchanged(Object.keys(change).length === 0);
    if (Object.keys(change).length === 0) return;
    const done = await run(() => postJson(`/call-backs/${segment(item.id)}`, change), t`The call-back is saved.`);
    if (done !== undefined) {
      setNote('');
      onSaved(status);
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack>
        <Title order={3} size="h5">
          <Trans>Work this call-back</Trans>
        </Title>
        <Select
          label={t`Status`}
          value={status}
          onChange={(value) => value && setStatus(value)}
          allowDeselect={false}
          data={CALL_BACK_STATUSES.map((value) => ({ value, label: labelOf(i18n, CALL_BACK_STATUS_LABELS, value) }))}
          data-testid="call-back-status"
        />
        <TextInput
          label={t`Assignee`}
          description={t`A name or e-mail; leave empty for nobody.`}
          value={assignee}
          onChange={(event) => setAssignee(event.currentTarget.value)}
          maxLength={120}
          data-testid="call-back-assignee"
        />
        <Textarea label={t`Add a note`} value={note} onChange={(event) => setNote(event.currentTarget.value)} autosize minRows={3} maxLength={2000} data-testid="call-back-note" />
        {unchanged && (
          <Text size="sm" role="status">
            <Trans>Nothing changed: there is nothing to save.</Trans>
          </Text>
        )}
        <ResultAlert result={result} onClose={clear} />
        <Button type="submit" loading={busy} disabled={busy} data-testid="call-back-save">
          <Trans>Save</Trans>
        </Button>
      </Stack>
    </form>
  );
}

