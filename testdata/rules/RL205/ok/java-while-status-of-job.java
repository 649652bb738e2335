package com.example.jobs;

// The loop condition tests a status that is not a response's (a job state
// compared with a constant), and the body reads the state: a poll with a
// wait, not a retry of a failure status.
public class JobPoller {

    public Job await(JobApi api, String id) throws InterruptedException {
        Job job = api.get(id);
        while (job.state() == State.RUNNING) {
            Thread.sleep(1000);
            job = api.get(id);
        }
        return job;
    }
}
