from shop.celery import app


@app.task
def remind_unpaid(order_id):
    print("reminding", order_id)
