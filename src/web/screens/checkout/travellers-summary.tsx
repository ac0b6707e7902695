import { useState } from 'react';
import { Button, Paper, ScrollArea, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { LeadDetails } from '../../../contract/lead.endpoints';
import type { ReviewPlan } from '../../../contract/traveller-review.rules';
import { formatIsoDate } from '../../i18n/format';
import { checkoutTravellerFields, type CheckoutTravellerField } from './checkout-traveller-fields';

/** Height of the travellers' summary until it is opened in full (spec §9: 170 px). */
export const SUMMARY_HEIGHT_PX = 170;

type Traveller = LeadDetails['travellers_info'][number];

/**
 * The travellers as they will be insured, read only (spec §2 checkout): names as on the passport,
 * date of birth, and the fields spec §2 shows for this insurer (checkoutTravellerFields). In a
 * 170 px scroll area until "Show full summary" opens it.
 */
export function TravellersSummary({ travellers, plan, lang }: { travellers: Traveller[]; plan: ReviewPlan; lang: Language }) {
  const { t } = useLingui();
  const [full, setFull] = useState(false);
  const count = travellers.length;
  const list = (
    <Stack gap="sm" data-testid="checkout-travellers">
      {travellers.map((traveller, index) => {
        const shown = checkoutTravellerFields(plan, index);
        // Names as on the passport, in Latin letters: one left-to-right run; the title is in the page's language.
        const name = [traveller.first_name, traveller.middle_name, traveller.last_name].filter(Boolean).join(' ');
        const number = index + 1;
        const values: Record<CheckoutTravellerField, [string, string | null]> = {
          passport: [t`Passport number`, traveller.passport],
          gender: [t`Gender`, traveller.gender_text],
          relationship: [t`Relationship`, traveller.relationship_type_text],
          residence: [t`Country of residence`, traveller.country_text],
          nationality: [t`Nationality`, traveller.nationality_text],
        };
        const facts: [string, string | null][] = [[t`Date of birth`, formatIsoDate(traveller.dob, lang)], ...shown.map((field) => values[field])];
        return (
          <div key={traveller.id} data-testid="checkout-traveller">
            <Text fw={700} fz="sm">
              {index === 0 ? t`Traveller ${number} (you)` : t`Traveller ${number}`}: {traveller.type_text && `${traveller.type_text} `}
              <bdi dir="ltr">{name}</bdi>
            </Text>
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" verticalSpacing={2} component="dl" m={0} mt={4}>
              {facts.map(([label, value]) => (
                <div key={label}>
                  <Text component="dt" fz="xs" c="dimmed">
                    {label}
                  </Text>
                  <Text component="dd" fz="sm" m={0}>
                    {value || '-'}
                  </Text>
                </div>
              ))}
            </SimpleGrid>
          </div>
        );
      })}
    </Stack>
  );
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="checkout-travellers-title">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="checkout-travellers-title">
          {t`Travellers (${count})`}
        </Title>
        {full ? list : (
          // Focusable, so keyboard users can scroll it too.
          <ScrollArea.Autosize mah={SUMMARY_HEIGHT_PX} type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, 'aria-labelledby': 'checkout-travellers-title' }}>
            {list}
          </ScrollArea.Autosize>
        )}
        <Button
          variant="subtle"
          size="sm"
          onClick={() => setFull((open) => !open)}
          aria-expanded={full}
          rightSection={full ? <IconChevronUp size={16} aria-hidden="true" /> : <IconChevronDown size={16} aria-hidden="true" />}
          style={{ alignSelf: 'flex-start' }}
          data-testid="full-summary-toggle"
        >
          {full ? t`Show less` : t`Show full summary`}
        </Button>
      </Stack>
    </Paper>
  );
}
