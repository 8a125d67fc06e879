export { Button, type ButtonProps, classes } from './button.js';
export { type ColumnDef, DataTable, type DataTableProps } from './data-table.js';
export { Dialog, type DialogProps } from './dialog.js';
export { Badge, Card, EmptyState, Notice, Skeleton } from './display.js';
export {
  CheckboxField,
  SelectField,
  type SelectFieldProps,
  TextField,
  type TextFieldProps,
} from './field.js';
export { KitProvider } from './provider.js';
export { type TabItem, Tabs } from './tabs.js';
export { applyTheme, storedTheme, type ThemeChoice, ThemeSwitch } from './theme.js';
export { ToastProvider, type Tone, useToast } from './toast.js';
