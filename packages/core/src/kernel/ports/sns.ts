import * as v from 'valibot';

/** An SNS notification (SES -> SNS -> SQS) whose `Message` is `inner` as JSON text. */
export const inSnsEnvelope = <S extends v.GenericSchema>(inner: S) =>
  v.pipe(
    v.looseObject({ Type: v.literal('Notification'), Message: v.string() }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        return JSON.parse(dataset.value.Message) as unknown;
      } catch {
        addIssue({ message: 'The SNS Message is not JSON' });
        return NEVER;
      }
    }),
    inner,
  );
