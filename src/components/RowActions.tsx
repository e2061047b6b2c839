import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ToggleOff from '@mui/icons-material/ToggleOff';
import ToggleOn from '@mui/icons-material/ToggleOn';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { SxProps, Theme } from '@mui/material/styles';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SwitchOffDialog, stopsProcesses } from './SwitchOffDialog';

export interface RowActionsProps {
  /** The thing, as the user knows it: every button's accessible name says it ("Edit “Main”"). */
  name: string;
  /** Switched on: the toggle is green and switches it off. */
  active: boolean;
  /** Switches it on or off; reports its own failures. */
  onToggle: () => void | Promise<void>;
  /** The switch is under way: the toggle waits. */
  toggling?: boolean;
  /**
   * Active processes that stop when it is switched off: switching off asks first when there are
   * any (SwitchOffDialog). Leave out for things processes do not stop with.
   */
  activeProcesses?: number;
  onEdit: () => void;
  onDelete: () => void;
  /** The delete button's accessible name, when not "Delete {{name}}" (e.g. "Remove {{name}}"). */
  deleteLabel?: string;
  /** Actions before the toggle (listen, test...). */
  children?: ReactNode;
  sx?: SxProps<Theme>;
}

const ROW_SX: SxProps<Theme> = {
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'flex-end',
  alignItems: 'center',
  gap: 1,
  mt: 1.5,
};

/**
 * The actions of a row or card of things a user switches on and off: any own actions, then
 * enable/disable, edit and delete as icon buttons, each named with the thing in both languages.
 */
export function RowActions({
  name,
  active,
  onToggle,
  toggling = false,
  activeProcesses,
  onEdit,
  onDelete,
  deleteLabel,
  children,
  sx = ROW_SX,
}: RowActionsProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const toggleLabel = active ? t('rowActions.disable', { name }) : t('rowActions.enable', { name });
  const editLabel = t('rowActions.edit', { name });
  const removeLabel = deleteLabel ?? t('rowActions.delete', { name });
  // Switching off what active processes use asks first: they stop with it.
  const toggle = () => (stopsProcesses(active, activeProcesses) ? setConfirming(true) : void onToggle());
  const confirmed = async () => {
    await onToggle();
    setConfirming(false);
  };

  return (
    <Box sx={sx}>
      {children}
      <Tooltip title={toggleLabel} describeChild>
        <span>
          <IconButton aria-label={toggleLabel} onClick={toggle} disabled={toggling} color={active ? 'success' : 'default'}>
            {active ? <ToggleOn /> : <ToggleOff />}
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={editLabel}>
        <IconButton aria-label={editLabel} onClick={onEdit}>
          <EditOutlined />
        </IconButton>
      </Tooltip>
      <Tooltip title={removeLabel}>
        <IconButton aria-label={removeLabel} onClick={onDelete} color="error">
          <DeleteOutlined />
        </IconButton>
      </Tooltip>
      {activeProcesses !== undefined && (
        <SwitchOffDialog
          open={confirming}
          name={name}
          count={activeProcesses}
          onConfirm={confirmed}
          onClose={() => setConfirming(false)}
        />
      )}
    </Box>
  );
}
