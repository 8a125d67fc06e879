/** Tabs on Base UI's (arrow keys move between tabs, Enter or Space opens one; ARIA tab roles). */
import { Tabs as BaseTabs } from '@base-ui/react/tabs';
import type { ReactNode } from 'react';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

export function Tabs(props: {
  label: string;
  tabs: TabItem[];
  value?: string;
  onChange?: (id: string) => void;
}) {
  return (
    <BaseTabs.Root
      className="kit-tabs"
      defaultValue={props.value === undefined ? props.tabs[0]?.id : undefined}
      value={props.value}
      onValueChange={(value) => props.onChange?.(String(value))}
    >
      <BaseTabs.List className="kit-tab-list" aria-label={props.label}>
        {props.tabs.map((tab) => (
          <BaseTabs.Tab key={tab.id} value={tab.id} className="kit-tab">
            {tab.label}
          </BaseTabs.Tab>
        ))}
      </BaseTabs.List>
      {props.tabs.map((tab) => (
        <BaseTabs.Panel key={tab.id} value={tab.id} className="kit-tab-panel">
          {tab.content}
        </BaseTabs.Panel>
      ))}
    </BaseTabs.Root>
  );
}
