import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '../testing/renderWithProviders';
import { FeedbackSnackbar, useFeedback } from './Feedback';

// MUI's styles and the providers are slow to render on a loaded 2-core machine.
jest.setTimeout(60_000);

let showFeedback: ReturnType<typeof useFeedback>['show'] = () => undefined;

function Page() {
  const { feedback, show, clear } = useFeedback();
  showFeedback = show;
  return <FeedbackSnackbar feedback={feedback} onClose={clear} />;
}

afterEach(() => jest.useRealTimers());

describe('FeedbackSnackbar', () => {
  test('a success goes away by itself after 4 s; a failure stays', () => {
    jest.useFakeTimers();
    renderWithProviders(<Page />);
    act(() => showFeedback('success', 'Process “Tales” created'));
    expect(screen.getByRole('status')).toHaveTextContent('Process “Tales” created');
    act(() => jest.advanceTimersByTime(4_000));
    // It fades out with its words, then is gone.
    act(() => jest.advanceTimersByTime(1_000));
    expect(screen.queryByText('Process “Tales” created')).not.toBeInTheDocument();

    act(() => showFeedback('error', 'The execution could not be cancelled.'));
    act(() => jest.advanceTimersByTime(60_000));
    expect(screen.getByRole('alert')).toHaveTextContent('The execution could not be cancelled.');
  });

  test('a message that replaces another is shown for its own 4 s, not what was left of the first one’s', () => {
    jest.useFakeTimers();
    renderWithProviders(<Page />);
    act(() => showFeedback('success', 'Process “Tales” created'));
    act(() => jest.advanceTimersByTime(3_000));
    act(() => showFeedback('success', 'Execution of “Tales” cancelled'));
    expect(screen.getByRole('status')).toHaveTextContent('Execution of “Tales” cancelled');
    expect(screen.queryByText('Process “Tales” created')).not.toBeInTheDocument();
    // The first message's time has run out; the second one's has not.
    act(() => jest.advanceTimersByTime(2_000));
    expect(screen.getByRole('status')).toHaveTextContent('Execution of “Tales” cancelled');
    act(() => jest.advanceTimersByTime(2_000));
    act(() => jest.advanceTimersByTime(1_000));
    expect(screen.queryByText('Execution of “Tales” cancelled')).not.toBeInTheDocument();
  });

  test('the same words twice are two messages: the second gets its own 4 s', () => {
    jest.useFakeTimers();
    renderWithProviders(<Page />);
    act(() => showFeedback('success', 'Saved'));
    act(() => jest.advanceTimersByTime(3_000));
    act(() => showFeedback('success', 'Saved'));
    act(() => jest.advanceTimersByTime(2_000));
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
  });
});
