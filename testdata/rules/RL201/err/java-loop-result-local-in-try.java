// A boolean outcome kept in a local inside the `try` (`Boolean r =
// trigger(..).get(3, SECONDS); if (r) return;`): a false result or an
// exception goes round at once, with no wait (rocketmq's
// ControllerManager.triggerElectMaster has this shape).
class Elector {
    private void triggerElect(String broker) {
        int maxRetryCount = config.getElectMaxRetryCount();
        for (int i = 0; i < maxRetryCount; i++) {
            try {
                Boolean elected = triggerElect0(broker).get(3, TimeUnit.SECONDS);
                if (elected) {
                    return;
                }
            } catch (Exception e) {
                log.warn("failed to trigger the election of {}, retry {}", broker, i, e);
            }
        }
    }
}
