import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { LanguageLabel } from '../../components/LanguageFlag';

export interface LanguageTabsProps {
  /** Prefix of the tab and panel ids (one per dialog). */
  idPrefix: string;
  /** The tablist's accessible name. */
  label: string;
  codes: readonly string[];
  value: string;
  onChange: (code: string) => void;
}

/** The id of a language's tab and of its panel, for aria-controls / aria-labelledby. */
export function languageTabIds(idPrefix: string, code: string) {
  return { tab: `${idPrefix}-tab-${code}`, panel: `${idPrefix}-panel-${code}` };
}

/** One tab per language: flag (decorative) and the language's name in the interface language. */
export function LanguageTabs({ idPrefix, label, codes, value, onChange }: LanguageTabsProps) {
  return (
    <Tabs
      value={codes.includes(value) ? value : false}
      onChange={(_event, code: string) => onChange(code)}
      variant="scrollable"
      scrollButtons="auto"
      allowScrollButtonsMobile
      aria-label={label}
      sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 44, '& .MuiTab-root': { minHeight: 44 } }}
    >
      {codes.map((code) => {
        const ids = languageTabIds(idPrefix, code);
        return <Tab key={code} value={code} id={ids.tab} aria-controls={ids.panel} label={<LanguageLabel code={code} />} />;
      })}
    </Tabs>
  );
}
