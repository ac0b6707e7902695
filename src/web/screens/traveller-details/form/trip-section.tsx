import { useId, useRef } from 'react';
import { Plural, useLingui } from '@lingui/react/macro';
import { Input, MultiSelect, Pill, Radio, Select, Text } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { IconCalendarEvent, IconPlaneArrival, IconPlaneDeparture, IconWorld } from '@tabler/icons-react';
import { TRIP_TYPE, tripBounds } from '../../../../contract/travel-details.rules';
import { SegmentedChoice } from '../../../components/segmented-choice';
import { DateField } from './date-field';
import { countryOptionsFilter } from '../../../i18n/country-search';
import { selectText } from './select-text';
import { useTruthfulActiveOption } from './use-truthful-active-option';
import type { FieldRefs } from './form-types';
import type { TravelDetailsReference } from '../../../../../machines/travel-details/travel-details.types';
import { tripLength, withDirection, withEndDate, withStartDate, withTripType } from './travel-details-values';
import type { TravelDetailsFormApi } from './use-travel-details-form';
import classes from './travel-details-form.module.css';
import { useListboxState } from '../../../components/listbox-state';
import { flushSync } from 'react-dom';

/** Most destinations one lead may carry (the contract's limit). */
const MAX_DESTINATIONS = 50;

/** Where and when: direction (RULINGS 4), countries, trip type (RULINGS 6) and dates. */
export function TripSection({ form, reference, today, refs }: { form: TravelDetailsFormApi; reference: TravelDetailsReference; today: string; refs: FieldRefs }) {
  const { t } = useLingui();
  const listbox = useListboxState();
  const titleId = useId();
  const tripTypeLabelId = useId();
  const { values } = form;
  const fromLebanon = values.inbound_outbound;
  const annual = values.trip_type === TRIP_TYPE.annual;
  const bounds = tripBounds(values.start_date, today);
  const days = tripLength(values);
  const destinationsInput = useRef<HTMLInputElement>(null);
  const destinationsRef = useMergedRef(destinationsInput, refs('destination_id'));
  useTruthfulActiveOption(destinationsInput);

  /**
   * Removes a chosen country by its pill's button. The pills after it are drawn anew (Mantine
   * keys them by position), so the pills are drawn at once (flushSync) and the keyboard focus
   * goes in the same task to the button now in its place, else the last pill's, else the search
   * field: never to the page, not even for a frame (WCAG 2.4.3).
   */
  const removeDestination = (id: string) => {
    const index = values.destination_id.findIndex((chosen) => String(chosen) === id);
    flushSync(() =>
      form.update((v) => ({ ...v, destination_id: v.destination_id.filter((chosen) => String(chosen) !== id) }), { edited: ['destination_id'], touched: ['destination_id'] }),
    );
    const input = destinationsInput.current;
    // The pills and the search field share one list; its only buttons are the pills' remove buttons.
    const buttons = input?.parentElement?.querySelectorAll<HTMLElement>('button');
    (buttons?.[Math.min(index, buttons.length - 1)] ?? input)?.focus();
  };

  const directions = [
    { value: 'from', icon: IconPlaneDeparture, label: t`Travelling from Lebanon` },
    { value: 'to', icon: IconPlaneArrival, label: t`Travelling to Lebanon` },
  ];

  return (
    <section className={classes.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={classes.sectionTitle}>
        <IconWorld size={22} className={classes.sectionIcon} aria-hidden="true" />
        {t`Your trip`}
      </h2>

      <Radio.Group
        label={t`Which way are you travelling?`}
        size="md"
        value={fromLebanon ? 'from' : 'to'}
        onChange={(direction) => form.update((v) => withDirection(v, direction === 'from'), { edited: ['destination_id', 'source_id'] })}
      >
        <div className={classes.directionCards}>
          {directions.map((direction) => (
            <Radio.Card key={direction.value} value={direction.value} className={classes.directionCard}>
              <span className={classes.directionCardTop}>
                <direction.icon size={24} aria-hidden="true" />
                <Radio.Indicator size="sm" />
              </span>
              <span className={classes.directionCardLabel}>{direction.label}</span>
            </Radio.Card>
          ))}
        </div>
      </Radio.Group>

      {fromLebanon ? (
        <MultiSelect
          ref={destinationsRef}
          label={t`Destinations`}
          description={t`Add every country you will visit.`}
          placeholder={values.destination_id.length === 0 ? t`Search for a country` : undefined}
          data={reference.countries}
          value={values.destination_id.map(String)}
          onChange={(ids) => form.update((v) => ({ ...v, destination_id: ids.map(Number) }), { edited: ['destination_id'], touched: ['destination_id'] })}
          onBlur={() => form.touch('destination_id')}
          error={form.errorOf('destination_id')}
          searchable
          filter={countryOptionsFilter}
          openOnFocus={false}
          selectFirstOptionOnChange
          hidePickedOptions
          // Mantine's pills have unnamed remove buttons out of the tab order: one could only
          // remove the last country (Backspace). Each is a named button one can Tab to (2.1.1).
          renderPill={({ option, value, disabled }) => {
            const id = String(value);
            // A saved country missing from the list still shows, by its id, as Mantine's own pill does.
            const country = (option as typeof option | undefined)?.label ?? id;
            return (
              <Pill
                withRemoveButton={!disabled}
                disabled={disabled}
                removeButtonProps={{ tabIndex: 0, 'aria-hidden': undefined, 'aria-label': t`Remove ${country}` }}
                onRemove={() => removeDestination(id)}
              >
                {country}
              </Pill>
            );
          }}
          maxValues={MAX_DESTINATIONS}
          nothingFoundMessage={t`No country matches`}
          comboboxProps={{ position: 'bottom-start' }}
          {...listbox}
          size="md"
          required
          // Mantine marks the wrapper (the asterisk) but not the search field a screen reader
          // reads; the other required fields are read as required (4.1.2).
          aria-required
        />
      ) : (
        <Select
          ref={refs('source_id')}
          label={t`Travelling from`}
          description={t`The country your trip to Lebanon starts in.`}
          placeholder={t`Search for a country`}
          data={reference.countries}
          value={values.source_id === null ? null : String(values.source_id)}
          onChange={(id) => form.update((v) => ({ ...v, source_id: id === null ? null : Number(id) }), { edited: ['source_id'], touched: ['source_id'] })}
          {...listbox}
          onBlur={() => form.touch('source_id')}
          error={form.errorOf('source_id')}
          searchable
          filter={countryOptionsFilter}
          openOnFocus={false}
          selectFirstOptionOnChange
          onFocus={selectText}
          allowDeselect={false}
          nothingFoundMessage={t`No country matches`}
          size="md"
          required
        />
      )}

      <Input.Wrapper label={t`Type of cover`} labelElement="div" id={tripTypeLabelId} size="md">
        <SegmentedChoice
          labelledBy={`${tripTypeLabelId}-label`}
          value={String(values.trip_type)}
          onChange={(type) =>
            form.update((v) => withTripType(v, Number(type) === TRIP_TYPE.annual ? TRIP_TYPE.annual : TRIP_TYPE.single, today), { edited: ['end_date'] })
          }
          data={[
            { value: String(TRIP_TYPE.single), label: t`Single trip` },
            { value: String(TRIP_TYPE.annual), label: t`Annual multi-trip` },
          ]}
        />
      </Input.Wrapper>

      <div>
        <div className={classes.twoColumns}>
          <DateField
            inputRef={refs('start_date')}
            label={t`Start date`}
            value={values.start_date}
            min={bounds.startMin}
            max={bounds.startMax}
            onChange={(date) => form.update((v) => withStartDate(v, date, today), { edited: ['start_date', 'end_date'], touched: ['start_date'] })}
            onBlur={() => form.touch('start_date')}
            error={form.errorOf('start_date')}
            required
          />
          <DateField
            inputRef={refs('end_date')}
            label={t`End date`}
            value={values.end_date}
            min={bounds.endMin}
            max={bounds.endMax}
            calendarStart={values.start_date ?? undefined}
            onChange={(date) => form.update((v) => withEndDate(v, date), { edited: ['end_date'], touched: ['end_date'] })}
            onBlur={() => form.touch('end_date')}
            disabled={annual}
            description={annual ? t`Annual cover ends 12 months after the start date, less one day.` : undefined}
            error={form.errorOf('end_date')}
            required
          />
        </div>
        <div aria-live="polite">
          {days !== null && (
            <Text className={classes.tripLength} data-testid="trip-length">
              <IconCalendarEvent size={16} aria-hidden="true" />
              <Plural value={days} one={`${days} day`} other={`${days} days`} />
            </Text>
          )}
        </div>
      </div>
    </section>
  );
}
