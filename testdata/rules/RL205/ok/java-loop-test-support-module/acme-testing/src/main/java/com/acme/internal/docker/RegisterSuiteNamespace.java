package com.acme.internal.docker;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

// Test support published as a module of its own (`acme-testing`): a program
// the test suite's container runs to register the suite's namespace on the
// local server before the tests start. Its loop goes round until the server
// answers, with no limit and a fixed pause, which is what a setup step for
// tests does; the module's folder says it serves tests, as a Rust crate's
// `testing` folder does (temporalio/sdk-java's `temporal-testing`,
// twenty-seventh pass). The package names no test, so only the folder does.
public class RegisterSuiteNamespace {
  private final NamespaceStub stub;

  public RegisterSuiteNamespace(NamespaceStub stub) {
    this.stub = stub;
  }

  public void register(String namespace) throws InterruptedException {
    while (true) {
      try {
        stub.registerNamespace(namespace);
        return;
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.ALREADY_EXISTS) {
          return;
        }
        if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
          Thread.sleep(250);
        }
      }
    }
  }

  public interface NamespaceStub {
    void registerNamespace(String namespace);
  }
}
