package com.example.users;

import javax.persistence.OptimisticLockException;

// The catch takes every `Throwable` but walks its cause chain: only an
// `OptimisticLockException` found there goes round (after the entity is
// read again), and every other failure is thrown once the chain runs out.
// The failures are sorted (apache/ambari `Users.safelyUpdateUserEntity`,
// `8433094284`; nineteenth pass).
public class UserUpdater {

    private static final int MAX_RETRIES = 10;

    private final UserDao userDao;

    public UserUpdater(UserDao userDao) {
        this.userDao = userDao;
    }

    public UserEntity update(UserEntity user, Command command) {
        int retriesLeft = MAX_RETRIES;
        do {
            try {
                command.perform(user);
                userDao.merge(user);
                return user;
            } catch (Throwable t) {
                Throwable cause = t;
                int failSafe = 50;
                do {
                    if (cause instanceof OptimisticLockException) {
                        user = userDao.findByPK(user.getUserId());
                        retriesLeft--;
                        if (retriesLeft == 0) {
                            throw t;
                        }
                        break;
                    } else {
                        cause = cause.getCause();
                    }
                    failSafe--;
                } while ((cause != null) && (cause != t) && (failSafe > 0));

                if ((cause == null) || (cause == t) || failSafe == 0) {
                    throw t;
                }
            }
        } while (retriesLeft > 0);
        return user;
    }
}
