package dev.punctual.infra;

/**
 * AWS list prices in us-east-1, as checked on {@link #CHECKED} (docs/cost.md names the sources). Free
 * tiers are ignored, so the cost model's figures are upper bounds for a small account.
 */
final class CostPrices {

    static final String CHECKED = "2026-11-30";

    /** CloudWatch custom metric, per metric-month (first 10,000 metrics). */
    static final double METRIC_MONTH = 0.30;
    /** CloudWatch standard-resolution alarm, per metric it reads, per month. */
    static final double ALARM_METRIC_MONTH = 0.10;
    /** CloudWatch custom dashboard, per month (the first three of an account are free). */
    static final double DASHBOARD_MONTH = 3.00;
    /**
     * Contributor Insights for CloudWatch Logs, per rule-month. Matched log events cost $0.02 per million
     * besides; the model charges none, since a happy-path outcome line matches no rule (only failed, late,
     * missed and overdue lines do), and docs/cost.md says so.
     */
    static final double INSIGHT_RULE_MONTH = 0.50;
    /** CloudWatch Logs standard ingestion, per GB; storage per GB-month. */
    static final double LOGS_INGEST_PER_GB = 0.50;

    static final double LOGS_STORE_PER_GB_MONTH = 0.03;
    /** EventBridge Scheduler invocations, per million (after 14 million free a month). */
    static final double SCHEDULER_PER_MILLION = 1.00;
    /** Lambda requests per million, and arm64 compute per GB-second. */
    static final double LAMBDA_REQUEST_PER_MILLION = 0.20;

    static final double LAMBDA_ARM_GB_SECOND = 0.0000133334;
    /** DynamoDB on-demand, per million write and read request units. */
    static final double DYNAMODB_WRITE_PER_MILLION = 0.625;

    static final double DYNAMODB_READ_PER_MILLION = 0.125;
    /** EventBridge custom events put on a bus, per million. */
    static final double EVENTS_PER_MILLION = 1.00;
    /**
     * Step Functions STANDARD workflows, per state transition: $0.025 per 1,000 in us-east-1 (after 4,000 free
     * a month). Source: aws.amazon.com/step-functions/pricing ("each retry will be charged as an additional
     * state transition"), read 2026-12-07 from a stored copy of the page, and a secondary summary dated March
     * 2026 (wring.co, $25 per million).
     */
    static final double STEP_FUNCTIONS_TRANSITION = 0.025 / 1_000;
    /** KMS customer-managed key, per month. */
    static final double KMS_KEY_MONTH = 1.00;

    static final double GB = 1_000_000_000d;
    static final double MILLION = 1_000_000d;
    /** An average month: 365.25 / 12 days. */
    static final double MINUTES_PER_MONTH = 365.25 / 12 * 24 * 60;

    private CostPrices() {}
}
