/**
 * Colours a label may take from a palette: distinct in light and dark, lower-case `#rrggbb` as the API
 * stores them. Shared by the task panel's label picker and the Labels settings tab.
 */
export const LABEL_COLORS = [
  { name: 'Red', value: '#e5484d' },
  { name: 'Orange', value: '#f76b15' },
  { name: 'Yellow', value: '#d9a21b' },
  { name: 'Green', value: '#2f9e6a' },
  { name: 'Teal', value: '#0d9488' },
  { name: 'Blue', value: '#3e8ed0' },
  { name: 'Indigo', value: '#5e6ad2' },
  { name: 'Purple', value: '#8e4ec6' },
  { name: 'Pink', value: '#d6409f' },
  { name: 'Grey', value: '#7c7f88' },
] as const;
