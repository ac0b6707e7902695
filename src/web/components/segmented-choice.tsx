import { useId } from 'react';
import classes from './segmented-choice.module.css';

export type SegmentedChoiceProps = {
  /** The id of the element that names the group (its visible label). */
  labelledBy: string;
  value: string;
  onChange: (value: string) => void;
  data: { value: string; label: string }[];
};

/**
 * A row of mutually exclusive options drawn as one segmented bar: native radio buttons (one tab
 * stop, arrow keys move the choice, read as "radio, 1 of 2"), styled by CSS alone. It stands in
 * for Mantine's SegmentedControl, whose sliding indicator measures the page as it mounts: on a
 * phone that forced the travel details form's whole first layout into its mount (issue 19).
 */
export function SegmentedChoice({ labelledBy, value, onChange, data }: SegmentedChoiceProps) {
  const name = useId();
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} className={classes.root}>
      {data.map((option) => {
        const id = `${name}-${option.value}`;
        return (
          <div key={option.value} className={classes.option}>
            <input
              type="radio"
              id={id}
              name={name}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
              className={classes.input}
            />
            <label htmlFor={id} className={classes.label}>
              {option.label}
            </label>
          </div>
        );
      })}
    </div>
  );
}
