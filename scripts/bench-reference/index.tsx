/**
 * The reference page of `npm run bench:bundle`: one screen built from React and Material UI alone
 * (a sign-in card with two fields and a button, in a dark theme), with none of the console's own
 * code. Its load time on the machine that runs the bench is the yardstick the console's /login is
 * compared with, so the ratio between the two means the same on a fast or a slow machine.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CssBaseline from '@mui/material/CssBaseline';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { createRoot } from 'react-dom/client';

const theme = createTheme({
  palette: { mode: 'dark', background: { default: '#0f1115', paper: '#171a21' } },
  typography: { button: { textTransform: 'none' } },
});

function Field({ id, label, type }: { id: string; label: string; type: string }) {
  return (
    <FormControl fullWidth variant="outlined">
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput id={id} type={type} label={label} />
    </FormControl>
  );
}

function Page() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', px: 2 }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: 4 }}>
        <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
          Sign in
        </Typography>
        <Box component="form" noValidate onSubmit={(event) => event.preventDefault()}>
          <Stack spacing={2.5}>
            <Field id="email" label="Email" type="email" />
            <Field id="password" label="Password" type="password" />
            <Button type="submit" variant="contained" size="large" fullWidth>
              Sign in
            </Button>
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <ThemeProvider theme={theme}>
    <CssBaseline />
    <Page />
  </ThemeProvider>,
);
