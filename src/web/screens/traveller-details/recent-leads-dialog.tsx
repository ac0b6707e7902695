import { Badge, Button, Group, Modal, Stack, Text, Title, UnstyledButton, useDirection } from '@mantine/core';
import { IconCalendar, IconChevronLeft, IconChevronRight, IconShieldCheck, IconUsers } from '@tabler/icons-react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Plural, useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { RecentSearch } from '../../../contract/lead.endpoints';
import type { LeadStage } from '../../../../machines/journey.types';
import { formatIsoDate } from '../../i18n/format';
import { useDialogFocusReturn } from '../../shell/dialog-focus';
import { useDialogSize } from '../../shell/dialog-size';

/** Where a lead continues, by its stage (spec §2: 1 compare quotes, 2 review details, 3 checkout). */
const CONTINUES_AT: Record<LeadStage, MessageDescriptor> = {
  1: msg`Continue at: compare quotes`,
  2: msg`Continue at: review details`,
  3: msg`Continue at: checkout`,
};

export interface RecentLeadsDialogProps {
  opened: boolean;
  leads: RecentSearch[];
  lang: Language;
  onPick: (uuid: string, stage: LeadStage) => void;
  /** A paid trip (RULINGS 28): its policy page, by the path the server gave (/policy/<token>). */
  onOpenPolicy: (policyPage: string) => void;
  /** 'Enter new details'; closing the dialog means the same. */
  onNew: () => void;
}

/**
 * The existing-leads chooser (spec §2 Dialogs): the trips entered earlier on this device, each
 * continued at the page of its stage, or new details. Paid trips are listed apart (RULINGS 28),
 * each opening its policy page. 650 px wide, 90 % on phones. It opens with the page, so nothing
 * opened it: closed, it gives the focus to the page's heading.
 */
export function RecentLeadsDialog({ opened, leads, lang, onPick, onOpenPolicy, onNew }: RecentLeadsDialogProps) {
  const { t, i18n } = useLingui();
  const size = useDialogSize('standard');
  useDialogFocusReturn(opened);
  const open = leads.filter((lead) => !lead.policy_page);
  const paid = leads.filter((lead) => lead.policy_page);
  return (
    <Modal.Root opened={opened} onClose={onNew} size={size} centered returnFocus={false}>
      <Modal.Overlay />
      <Modal.Content data-testid="recent-leads-dialog">
        {/* A div, not Mantine's <header>: inside role="dialog" that would be a second banner landmark. */}
        <Modal.Header component="div">
          <Modal.Title fw={700}>{t`Select from existing entered data`}</Modal.Title>
          <Modal.CloseButton aria-label={t`Close and enter new details`} />
        </Modal.Header>
        <Modal.Body>
          <Text c="dimmed" fz="sm" mb="md">
            {t`You entered these trips on this device before. Continue one where you left off, or enter new details.`}
          </Text>
          {open.length > 0 && (
            <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="recent-leads-open">
              {open.map((lead) => (
                <li key={lead.uuid_lead}>
                  <TripButton lead={lead} lang={lang} badge={i18n._(CONTINUES_AT[lead.stage])} onClick={() => onPick(lead.uuid_lead, lead.stage)} testId="recent-lead" />
                </li>
              ))}
            </Stack>
          )}
          {paid.length > 0 && (
            <>
              <Title order={3} fz="md" mt={open.length > 0 ? 'lg' : 0} mb="sm" id="recent-leads-paid-heading">
                {t`Policies issued`}
              </Title>
              <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-labelledby="recent-leads-paid-heading" data-testid="recent-leads-paid">
                {paid.map((lead) => (
                  <li key={lead.uuid_lead}>
                    <TripButton lead={lead} lang={lang} badge={t`Policy issued`} paid onClick={() => onOpenPolicy(lead.policy_page!)} testId="recent-paid-lead" />
                  </li>
                ))}
              </Stack>
            </>
          )}
          <Group justify="flex-end" mt="lg">
            <Button variant="default" onClick={onNew} data-testid="recent-leads-new">
              {t`Enter new details`}
            </Button>
          </Group>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}

/** One trip of the chooser: where to, when, how many, and where it continues. */
function TripButton({ lead, lang, badge, paid = false, onClick, testId }: { lead: RecentSearch; lang: Language; badge: string; paid?: boolean; onClick: () => void; testId: string }) {
  const { dir } = useDirection();
  const Chevron = dir === 'rtl' ? IconChevronLeft : IconChevronRight;
  const travellers = lead.no_of_traveller;
  return (
    <UnstyledButton
      onClick={onClick}
      data-testid={testId}
      data-stage={lead.stage}
      w="100%"
      p="md"
      style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text fw={700} truncate="end">
            {lead.destination_name}
          </Text>
          <Group gap="md" c="dimmed" fz="sm">
            <Group gap={4} wrap="nowrap">
              <IconCalendar size={16} aria-hidden="true" />
              <span>
                {formatIsoDate(lead.start_date, lang)} – {formatIsoDate(lead.end_date, lang)}
              </span>
            </Group>
            <Group gap={4} wrap="nowrap">
              <IconUsers size={16} aria-hidden="true" />
              <span>
                <Plural value={travellers} one={`${travellers} traveller`} other={`${travellers} travellers`} />
              </span>
            </Group>
          </Group>
          <Badge variant={paid ? 'filled' : 'light'} color={paid ? 'teal.9' : undefined} radius="sm" style={{ alignSelf: 'flex-start' }} leftSection={paid ? <IconShieldCheck size={14} aria-hidden="true" /> : undefined}>
            {badge}
          </Badge>
        </Stack>
        <Chevron size={20} aria-hidden="true" style={{ flexShrink: 0 }} />
      </Group>
    </UnstyledButton>
  );
}
