import { StepFailure, type StepContext } from '../context';

/**
 * Step 7: publishing to YouTube is the publishing issue's (issue 6). Until it lands, the run ends
 * here with the rendered video kept (it can be previewed) and a message that says so.
 */
export async function publishingVideo(ctx: StepContext): Promise<void> {
  void ctx;
  throw new StepFailure('pipeline.publishingNotConfigured', {}, 'publishing is not configured yet');
}
