package com.example.coursescheduling.model;

/** A major is also the "student group" a schedule can be viewed for. */
public class Major {
    public Long id;
    public String name;
    public Long departmentId;
}
