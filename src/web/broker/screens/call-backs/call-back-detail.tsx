import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, DataList, Divider, List, Stack, Text, Title } from '@mantine/core';
import type { CallBackListItem } from '../../../../contract/broker-console';
import { formatCountry, formatDateTime, formatDay, formatList } from '../../i18n/console-format';
import { CALL_BACK_REASON_LABELS, CALL_BACK_STATUS_LABELS, labelOf } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';
import { CallBackForm } from './call-back-form';
import { telHref, whatsAppHref } from './contact-links';

/** One call-back: how to reach the customer, the trip they asked about, the team's notes, the form. */
export function CallBackDetail({ item, onSaved }: { item: CallBackListItem; onSaved: (status: string) => void }) {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  const trip = item.trip;
  return (
    <Stack data-testid="call-back-detail">
      <DataList orientation="horizontal" labelWidth={120}>
        <DataList.Item>
          <DataList.ItemLabel>{t`Created`}</DataList.ItemLabel>
          <DataList.ItemValue>{formatDateTime(item.created, lang)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t`Reason`}</DataList.ItemLabel>
          <DataList.ItemValue>{labelOf(i18n, CALL_BACK_REASON_LABELS, item.reason)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t`Status`}</DataList.ItemLabel>
          <DataList.ItemValue>{labelOf(i18n, CALL_BACK_STATUS_LABELS, item.status)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t`Phone`}</DataList.ItemLabel>
          <DataList.ItemValue>
            <Anchor href={telHref(item.phone)} className="console-ltr" data-testid="call-back-tel">
              {item.phone}
            </Anchor>
            {' · '}
            <Anchor href={whatsAppHref(item.phone)} target="_blank" rel="noopener noreferrer" data-testid="call-back-whatsapp">
              <Trans>WhatsApp</Trans>
            </Anchor>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t`E-mail`}</DataList.ItemLabel>
          <DataList.ItemValue>
            <Anchor href={`mailto:${item.email}`} className="console-ltr">
              {item.email}
            </Anchor>
          </DataList.ItemValue>
        </DataList.Item>
      </DataList>

      {trip && <TripFacts trip={trip} />}

      <Stack gap="xs">
        <Title order={3} size="h5">
          <Trans>Notes</Trans>
        </Title>
        {item.notes.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>No notes yet.</Trans>
          </Text>
        ) : (
          <List size="sm" spacing="xs" listStyleType="none" data-testid="call-back-notes">
            {item.notes.map((note, index) => (
              <List.Item key={index}>
                <Text size="xs" c="dimmed">
                  {note.author} · {formatDateTime(note.at, lang)}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {note.text}
                </Text>
              </List.Item>
            ))}
          </List>
        )}
      </Stack>

      <Divider />
      <CallBackForm key={item.id} item={item} onSaved={onSaved} />
    </Stack>
  );
}

/** The trip the customer was quoting for: dates, destinations, and each traveller's date of birth. */
function TripFacts({ trip }: { trip: NonNullable<CallBackListItem['trip']> }) {
  const { lang } = useLanguage();
  const from = formatDay(trip.from, lang);
  const to = formatDay(trip.to, lang);
  const destinations = formatList(
    trip.destinations.map((code) => formatCountry(code, lang)),
    lang,
  );
  const count = trip.travellers.length;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        <Trans>Trip</Trans>
      </Title>
      <Text size="sm">
        <Trans>
          From {from} to {to}
        </Trans>
      </Text>
      <Text size="sm">
        <Trans>Destinations: {destinations}</Trans>
      </Text>
      <Text size="sm">
        <Trans>Travellers: {count}</Trans>
      </Text>
      <List size="sm">
        {trip.travellers.map((traveller, index) => {
          const number = index + 1;
          const dob = formatDay(traveller.dob, lang);
          return (
            <List.Item key={index}>
              <Trans>
                Traveller {number}: date of birth {dob}
              </Trans>
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
